/**
 * The worker process of the tests that kill workers (test/gitsync/worker-process.ts), compiled once per run against
 * an up-to-date dist/ (./compiled-build.ts): plain node loads Folio's compiled modules in about half the CPU time
 * tsx needs for the sources, and those tests start up to five worker processes each.
 *
 * The file alone is transpiled (TypeScript's transpileModule, no type check: `npm run typecheck` and the tests that
 * run it under tsx check it) and its relative imports, which all name Folio modules under src/, are pointed at
 * their compiled files in dist/src/. An import of anything else is an error here, not a process that fails later.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '../..');
const SOURCE = path.join(root, 'test', 'gitsync', 'worker-process.ts');

/** Writes the compiled worker process into `dir`; its path. */
export function compileWorkerProcess(dir: string): string {
  const source = readFileSync(SOURCE, 'utf8');
  const { outputText } = ts.transpileModule(source, {
    fileName: SOURCE,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
  });
  const code = outputText.replace(/(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\2/g, (whole, lead: string, quote: string, spec: string) => {
    const target = path.resolve(path.dirname(SOURCE), spec);
    const rel = path.relative(path.join(root, 'src'), target);
    if (!spec.startsWith('.') || rel.startsWith('..') || path.isAbsolute(rel)) {
      throw new Error(`test/gitsync/worker-process.ts imports ${spec}: only Folio modules under src/ can be pointed at dist/`);
    }
    return `${lead}${quote}${pathToFileURL(path.join(root, 'dist', 'src', rel)).href}${quote}`;
  });
  const file = path.join(dir, 'worker-process.mjs');
  writeFileSync(file, code);
  return file;
}
