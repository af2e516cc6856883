import { ValidationError } from '../errors.js';

/** Folio's one id scheme (src/ids.ts). */
export { newId } from '../ids.js';

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Throws a ValidationError unless `id` is a URL-safe id of 1..64 characters. */
export function checkId(what: string, id: unknown): string {
  if (typeof id !== 'string' || !ID.test(id))
    throw new ValidationError(`${what} id must be 1-64 characters of [A-Za-z0-9_-]`, { what, id: typeof id === 'string' ? id.slice(0, 80) : typeof id });
  return id;
}
