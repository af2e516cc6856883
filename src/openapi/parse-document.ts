import YAML from 'yaml';
import { SpecParseError } from './errors.js';

/** Text of a fetched or submitted document: UTF-8, without a byte-order mark. */
export function decodeDocumentText(body: Buffer | string): string {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Whether the text is JSON rather than YAML (by its first significant character). */
export function looksLikeJson(text: string): boolean {
  const first = /\S/.exec(text)?.[0];
  return first === '{' || first === '[';
}

/**
 * Parses one JSON or YAML document (YAML 1.2 core schema, so `version: 2024-01-01` stays a string; alias
 * expansion bounded against "billion laughs"). Failures are PARSE_ERROR with `file:line:column` locations.
 */
export function parseDocumentText(text: string, file: string, options: { requireObject?: boolean } = {}): unknown {
  let value: unknown;
  let parsed = false;
  if (looksLikeJson(text)) {
    try {
      value = JSON.parse(text);
      parsed = true;
    } catch {
      // Fall through to the YAML parser, which accepts JSON and reports where it breaks.
    }
  }
  if (!parsed) {
    const doc = YAML.parseDocument(text, { prettyErrors: true });
    if (doc.errors.length > 0) {
      throw new SpecParseError(
        doc.errors.slice(0, 20).map((e) => {
          const pos = e.linePos?.[0];
          return { location: pos ? `${file}:${pos.line}:${pos.col}` : file, message: firstLine(e.message) };
        }),
      );
    }
    try {
      value = doc.toJS({ maxAliasCount: 1000 });
    } catch (err) {
      throw new SpecParseError([{ location: file, message: err instanceof Error ? err.message : String(err) }], { cause: err });
    }
  }
  if (options.requireObject && (value === null || typeof value !== 'object' || Array.isArray(value))) {
    throw new SpecParseError([{ location: file, message: 'the document must be a JSON or YAML object (mapping)' }]);
  }
  return value;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '').trim();
}
