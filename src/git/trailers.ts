/**
 * Commit message trailers (`Key: value` lines in the last paragraph), as `git interpret-trailers`
 * reads them. Folio marks its own commits with e.g. `Folio-Revision: <id>`.
 */

export interface Trailer {
  key: string;
  value: string;
}

const TRAILER_LINE = /^([A-Za-z0-9][A-Za-z0-9-]*)[ \t]*:[ \t]*(.*)$/;

/** The trailers of a commit message, in order (continuation lines folded into their value). */
export function parseTrailers(message: string): Trailer[] {
  const lines = message.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  // Drop comment lines as git does.
  const body = lines.filter((l) => !l.startsWith('#'));
  let start = body.length;
  while (start > 0 && body[start - 1]!.trim() !== '') start--;
  // A message that is one paragraph is a subject, never trailers.
  if (start === 0) return [];
  const block = body.slice(start);
  const trailers: Trailer[] = [];
  for (const line of block) {
    if (/^[ \t]/.test(line) && trailers.length > 0) {
      trailers[trailers.length - 1]!.value += ` ${line.trim()}`;
      continue;
    }
    const m = TRAILER_LINE.exec(line);
    if (!m) return [];
    trailers.push({ key: m[1]!, value: m[2]!.trim() });
  }
  return trailers;
}

/** The value of the last trailer named `key` (case-insensitive), if any. */
export function getTrailer(message: string, key: string): string | undefined {
  const k = key.toLowerCase();
  const found = parseTrailers(message).filter((t) => t.key.toLowerCase() === k);
  return found.length ? found[found.length - 1]!.value : undefined;
}

/** Appends trailers to a message (in a trailer block of their own, or onto an existing one). */
export function appendTrailers(message: string, trailers: Trailer[] | Record<string, string>): string {
  const list: Trailer[] = Array.isArray(trailers) ? trailers : Object.entries(trailers).map(([key, value]) => ({ key, value }));
  if (list.length === 0) return message.endsWith('\n') ? message : `${message}\n`;
  for (const t of list) {
    if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(t.key)) throw new TypeError(`invalid trailer key ${JSON.stringify(t.key)}`);
    if (/[\r\n]/.test(t.value)) throw new TypeError(`trailer ${t.key} value must be a single line`);
  }
  const base = message.replace(/\s+$/, '');
  const lines = list.map((t) => `${t.key}: ${t.value}`).join('\n');
  const joiner = parseTrailers(base).length > 0 ? '\n' : '\n\n';
  return `${base}${joiner}${lines}\n`;
}
