import { FormatWarningCodes, PageTooComplexError, RootOutsideRepositoryError, warning, type FormatWarning } from './errors.js';
import { parseGitbookYaml, type GitbookYamlParser, type ParsedGitbookYaml } from './gitbook-yaml-parse.js';
import type { Redirect, SourceTree, SpaceConfig } from './model.js';
import { joinPath, normalizePath, resolvePath } from './paths.js';
import { gitBlobOid } from './source-tree.js';

export { MAX_CONFIG_VALUES, MAX_PARSED_CONFIG_CHARS, parseGitbookYaml, type GitbookYamlParser, type ParsedGitbookYaml } from './gitbook-yaml-parse.js';

/** Largest `.gitbook.yaml` whose text the revision keeps (real ones are a few hundred bytes). */
const MAX_KEPT_CONFIG_BYTES = 64 * 1024;

/**
 * Resolve the space configuration for a project directory of a tree: `.gitbook.yaml` inside the
 * project directory (else defaults), `root` relative to the project directory, structure paths
 * relative to the root. Throws RootOutsideRepositoryError when a root escapes the repository.
 */
export async function resolveSpaceConfig(
  tree: SourceTree,
  projectDirectory: string | undefined,
  parse: GitbookYamlParser = async (text, path) => parseGitbookYaml(text, path),
): Promise<{ config: SpaceConfig; warnings: FormatWarning[] }> {
  const project = normalizePath(projectDirectory ?? '');
  if (project === null) throw new RootOutsideRepositoryError(projectDirectory ?? '');
  const configPath = joinPath(project, '.gitbook.yaml');
  const entry = tree.get(configPath);
  let parsed: ParsedGitbookYaml = { redirects: [], warnings: [] };
  const symlink = entry?.mode === '120000';
  let configText: string | undefined;
  if (entry && !symlink) {
    const bytes = await entry.read();
    const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(bytes);
    try {
      parsed = await parse(text, configPath);
    } catch (err) {
      // Over the parse thread's time or memory budget (or nested too deeply): defaults apply, the file is untouched.
      if (!(err instanceof PageTooComplexError)) throw err;
      parsed = {
        redirects: [],
        warnings: [
          warning(
            FormatWarningCodes.CONFIG_TOO_COMPLEX,
            `.gitbook.yaml is over the ${err.budget} budget of parsing; defaults apply and the file is left untouched`,
            {
              severity: 'error',
              path: configPath,
            },
          ),
        ],
      };
    }
    if (bytes.byteLength <= MAX_KEPT_CONFIG_BYTES && gitBlobOid(new TextEncoder().encode(text)) === entry.oid) configText = text;
  }
  const root = resolvePath(project, parsed.root ?? '.');
  if (root === null) throw new RootOutsideRepositoryError(parsed.root ?? '');
  const readme = resolvePath(root, parsed.readme ?? 'README.md');
  const summary = resolvePath(root, parsed.summary ?? 'SUMMARY.md');
  const warnings = parsed.warnings;
  if (symlink)
    warnings.push(
      warning(FormatWarningCodes.CONFIG_SYMLINK, `${configPath} is a symbolic link; it is not followed, defaults apply and it is left untouched`, {
        severity: 'error',
        path: configPath,
      }),
    );
  if (readme === null) throw new RootOutsideRepositoryError(parsed.readme ?? '');
  if (summary === null) throw new RootOutsideRepositoryError(parsed.summary ?? '');
  const redirects: Redirect[] = parsed.redirects.map((r) => ({ from: r.from, to: r.to }));
  return {
    config: {
      projectDirectory: project,
      configPath: entry && !symlink ? configPath : null,
      ...(configText !== undefined ? { configText } : {}),
      root,
      readme,
      summary,
      redirects,
    },
    warnings,
  };
}
