import yaml from 'js-yaml';
import { FormatWarningCodes, RootOutsideRepositoryError, warning, type FormatWarning } from './errors.js';
import { expandsBeyond } from './markdown/yaml-size.js';
import type { Redirect, SourceTree, SpaceConfig } from './model.js';
import { joinPath, normalizePath, resolvePath } from './paths.js';
import { gitBlobOid } from './source-tree.js';

const KNOWN_KEYS = new Set(['root', 'structure', 'redirects']);
/** Largest `.gitbook.yaml` whose text the revision keeps (real ones are a few hundred bytes). */
const MAX_KEPT_CONFIG_BYTES = 64 * 1024;
/**
 * Budgets of parsing `.gitbook.yaml` (it is parsed on the caller's thread: these keep that short): the largest
 * text parsed, and the most values its YAML aliases may expand to (the front matter's rule, `expandsBeyond`).
 */
export const MAX_PARSED_CONFIG_CHARS = 1024 * 1024;
export const MAX_CONFIG_VALUES = 100_000;

/**
 * Parse `.gitbook.yaml` text. Never throws: invalid YAML gives defaults and a warning; so does a file over a
 * budget (longer than {@link MAX_PARSED_CONFIG_CHARS} characters, or aliases expanding beyond {@link MAX_CONFIG_VALUES}
 * values), with FORMAT_CONFIG_TOO_COMPLEX. The file itself is never changed.
 */
export function parseGitbookYaml(
  text: string,
  path: string,
): { root?: string; readme?: string; summary?: string; redirects: Array<{ from: string; to: string }>; warnings: FormatWarning[] } {
  const warnings: FormatWarning[] = [];
  const redirects: Array<{ from: string; to: string }> = [];
  let data: unknown;
  const tooComplex = (why: string) => {
    warnings.push(
      warning(FormatWarningCodes.CONFIG_TOO_COMPLEX, `.gitbook.yaml ${why}; defaults apply and the file is left untouched`, { severity: 'error', path }),
    );
    return { redirects, warnings };
  };
  if (text.length > MAX_PARSED_CONFIG_CHARS) return tooComplex(`is longer than ${MAX_PARSED_CONFIG_CHARS} characters`);
  try {
    // Several documents (`---` marker) are allowed; the first mapping wins.
    const docs = yaml.loadAll(text.replace(/^\uFEFF/, ''), undefined, { schema: yaml.CORE_SCHEMA });
    if (expandsBeyond(docs, MAX_CONFIG_VALUES)) return tooComplex(`has YAML aliases that expand it to more than ${MAX_CONFIG_VALUES} values`);
    data = docs.find((d) => d !== null && d !== undefined);
  } catch (e) {
    const err = e as { reason?: string; mark?: { line?: number } };
    warnings.push(
      warning(FormatWarningCodes.CONFIG_INVALID_YAML, `invalid YAML in .gitbook.yaml: ${err.reason ?? String(e)}; defaults apply`, {
        severity: 'error',
        path,
        ...(err.mark?.line !== undefined ? { line: err.mark.line + 1 } : {}),
      }),
    );
    return { redirects, warnings };
  }
  if (data === undefined || data === null) return { redirects, warnings };
  if (typeof data !== 'object' || Array.isArray(data)) {
    warnings.push(warning(FormatWarningCodes.CONFIG_INVALID_YAML, '.gitbook.yaml is not a mapping; defaults apply', { severity: 'error', path }));
    return { redirects, warnings };
  }
  const obj = data as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!KNOWN_KEYS.has(key))
      warnings.push(warning(FormatWarningCodes.CONFIG_UNKNOWN_KEY, `unknown key ${JSON.stringify(key)} in .gitbook.yaml is ignored`, { path, data: { key } }));
  }
  const out: { root?: string; readme?: string; summary?: string; redirects: Array<{ from: string; to: string }>; warnings: FormatWarning[] } = {
    redirects,
    warnings,
  };
  if (typeof obj.root === 'string') out.root = obj.root;
  const structure = obj.structure;
  if (structure && typeof structure === 'object' && !Array.isArray(structure)) {
    const s = structure as Record<string, unknown>;
    if (typeof s.readme === 'string') out.readme = s.readme;
    if (typeof s.summary === 'string') out.summary = s.summary;
  }
  const r = obj.redirects;
  if (r && typeof r === 'object' && !Array.isArray(r)) {
    for (const [from, to] of Object.entries(r as Record<string, unknown>)) {
      if (typeof to === 'string') redirects.push({ from, to });
      else warnings.push(warning(FormatWarningCodes.CONFIG_INVALID_YAML, `redirect ${JSON.stringify(from)} has no string target`, { path }));
    }
  }
  return out;
}

/**
 * Resolve the space configuration for a project directory of a tree: `.gitbook.yaml` inside the
 * project directory (else defaults), `root` relative to the project directory, structure paths
 * relative to the root. Throws RootOutsideRepositoryError when a root escapes the repository.
 */
export async function resolveSpaceConfig(tree: SourceTree, projectDirectory: string | undefined): Promise<{ config: SpaceConfig; warnings: FormatWarning[] }> {
  const project = normalizePath(projectDirectory ?? '');
  if (project === null) throw new RootOutsideRepositoryError(projectDirectory ?? '');
  const configPath = joinPath(project, '.gitbook.yaml');
  const entry = tree.get(configPath);
  let parsed: ReturnType<typeof parseGitbookYaml> = { redirects: [], warnings: [] };
  const symlink = entry?.mode === '120000';
  let configText: string | undefined;
  if (entry && !symlink) {
    const bytes = await entry.read();
    const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(bytes);
    parsed = parseGitbookYaml(text, configPath);
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
