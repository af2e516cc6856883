import { ValidationError } from '../errors.js';

const UNITS: Record<string, number> = { m: 60_000, h: 3600_000, d: 24 * 3600_000, w: 7 * 24 * 3600_000 };
const MIN_MS = 60_000;
const MAX_MS = 3660 * 24 * 3600_000;

/**
 * Milliseconds of a token lifetime such as `30d`, `12h`, `90m` or `8w` (`--expires-in`, `expiresIn`):
 * a whole number and a unit `m`, `h`, `d` or `w`, from 1 minute to 3660 days. ValidationError otherwise.
 */
export function parseTokenLifetime(raw: unknown): number {
  const match = typeof raw === 'string' ? /^\s*(\d{1,7})\s*([mhdw])\s*$/i.exec(raw) : null;
  if (!match) throw new ValidationError(`a token lifetime is a whole number with a unit m, h, d or w (such as 30d), got ${JSON.stringify(raw)}`);
  const ms = Number(match[1]) * UNITS[match[2]!.toLowerCase()]!;
  if (ms < MIN_MS || ms > MAX_MS) throw new ValidationError(`a token lifetime is between 1m and 3660d, got ${JSON.stringify(raw)}`);
  return ms;
}
