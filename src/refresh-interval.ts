/** Shortest and longest accepted refresh intervals of URL specs. */
export const REFRESH_INTERVAL_MIN_MS = 60_000;
export const REFRESH_INTERVAL_MAX_MS = 366 * 24 * 3600_000;

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3600_000, d: 24 * 3600_000, w: 7 * 24 * 3600_000 };

/**
 * Milliseconds of an OPENAPI_REFRESH_INTERVAL value: a whole number and a unit, `s`, `m`, `h`, `d` or `w`
 * (`30m`, `6h`, `1d`), between 1 minute and 366 days. Anything else is an Error naming the variable.
 */
export function parseRefreshInterval(raw: string, name = 'OPENAPI_REFRESH_INTERVAL'): number {
  const match = /^\s*(\d{1,9})\s*([smhdw])\s*$/i.exec(raw);
  if (!match) throw new Error(`${name} must be a whole number with a unit s, m, h, d or w (such as 6h or 30m), got ${JSON.stringify(raw)}`);
  const ms = Number(match[1]) * UNITS[match[2]!.toLowerCase()]!;
  if (ms < REFRESH_INTERVAL_MIN_MS || ms > REFRESH_INTERVAL_MAX_MS) {
    throw new Error(`${name} must be between 1m and 366d, got ${JSON.stringify(raw)}`);
  }
  return ms;
}

/** The value as given, once it is known to parse (Config keeps the string; the schedule uses the milliseconds). */
export function checkRefreshInterval(raw: string, name = 'OPENAPI_REFRESH_INTERVAL'): string {
  parseRefreshInterval(raw, name);
  return raw.trim();
}
