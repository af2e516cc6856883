// ESLint 9 flat config: typescript-eslint's recommended rules, plus type-aware rules that catch real bugs
// (floating and misused promises) on the code that ships. Formatting is Prettier's job, not ESLint's.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const shipped = ['src/**/*.ts', 'activities/**/*.ts', 'workflows/**/*.ts', 'bench/**/*.ts'];

/**
 * `npm run lint` keeps ESLint's cache (.cache/eslint/), which keys a file by its own content and its config. The
 * type-aware rules also read the types of what a file imports, so the shipped files' config carries a hash of every
 * file their types come from: a change there lints them all again, while the tests (linted without types) stay cached.
 */
function typesHash() {
  const hash = createHash('sha256');
  const files = ['src', 'activities', 'workflows', 'bench', 'test/helpers'].flatMap((dir) =>
    readdirSync(path.join(import.meta.dirname, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => path.join(e.parentPath, e.name)),
  );
  for (const file of [...files.sort(), 'tsconfig.json', 'package-lock.json'].map((f) => path.resolve(import.meta.dirname, f))) {
    hash
      .update(path.relative(import.meta.dirname, file))
      .update('\0')
      .update(readFileSync(file))
      .update('\0');
  }
  return hash.digest('hex');
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tools/**', 'data/**', '.vitest-tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // `cond ? a++ : b++` and `x && (y = z)` are used on purpose in the markdown style detectors.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      'no-control-regex': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: shipped,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    settings: { folioTypesHash: typesHash() },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // Functions stay short (issue 32), benchmarks included; tests are exempt.
    files: ['src/**/*.ts', 'activities/**/*.ts', 'workflows/**/*.ts', 'bench/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    // swagger-parser's typings pick the callback overload for `validate(base, api as never, options)`, which does return a promise.
    files: ['src/openapi/process.ts'],
    rules: { '@typescript-eslint/await-thenable': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    // Tests cast JSON answers and SDK internals freely.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
