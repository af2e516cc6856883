/** Parsing `.gitbook.yaml` text (plain data in and out: it also runs in a parse thread). */
import yaml from 'js-yaml';
import { FormatWarningCodes, warning, type FormatWarning } from './errors.js';
import { expandsBeyond } from './markdown/yaml-size.js';

const KNOWN_KEYS = new Set(['root', 'structure', 'redirects']);

/**
 * Budgets of parsing `.gitbook.yaml` on any thread (git imports and exports parse it in the parse pool, with that
 * pool's time and memory budget too): the largest text parsed, and the most values its YAML aliases may expand to (the front matter's rule, `expandsBeyond`).
 */
export const MAX_PARSED_CONFIG_CHARS = 1024 * 1024;
export const MAX_CONFIG_VALUES = 100_000;

/** What `.gitbook.yaml` says (plain data: it crosses to and from a parse thread). */
export interface ParsedGitbookYaml {
  root?: string;
  readme?: string;
  summary?: string;
  redirects: Array<{ from: string; to: string }>;
  warnings: FormatWarning[];
}

/** Parses `.gitbook.yaml` text: in this thread by default, in a parse thread with budgets when a pool is given. */
export type GitbookYamlParser = (text: string, path: string) => Promise<ParsedGitbookYaml>;

/**
 * Parse `.gitbook.yaml` text. Never throws: invalid YAML gives defaults and a warning; so does a file over a
 * budget (longer than {@link MAX_PARSED_CONFIG_CHARS} characters, or aliases expanding beyond {@link MAX_CONFIG_VALUES}
 * values), with FORMAT_CONFIG_TOO_COMPLEX. The file itself is never changed.
 */
export function parseGitbookYaml(text: string, path: string): ParsedGitbookYaml {
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
