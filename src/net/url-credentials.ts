/**
 * The one URL-credential splitter: `https://user:pass@host/repo.git` → the credential-free URL (safe to log, to
 * store, to key caches with, to put in workflow inputs) and the basic-auth credentials, which then travel apart
 * (the vault, an `Authorization` header, isomorphic-git's `onAuth`).
 *
 * Normalisation, the same for every caller: only absolute `http:`/`https:` URLs with a host; the userinfo is
 * percent-decoded and removed; the fragment is removed (never sent to a server); trailing slashes of the path are
 * removed when there is no query (`https://host/r.git/` and `https://host/r.git` are one remote). Errors never
 * repeat the URL.
 */
import { UrlInvalidError } from './errors.js';

export interface UrlCredentials {
  username: string;
  password: string;
}

export interface CredentialFreeUrl {
  /** The URL without userinfo and fragment. */
  url: string;
  /** Present when the URL carried a username or a password. */
  credentials?: UrlCredentials;
}

function decodeUserinfo(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new UrlInvalidError('has malformed percent-encoding in its credentials');
  }
}

export function splitUrlCredentials(raw: string): CredentialFreeUrl {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new UrlInvalidError('must be an absolute http(s) URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UrlInvalidError(`must be an http(s) URL (scheme ${u.protocol} is not supported)`);
  if (!u.hostname) throw new UrlInvalidError('must have a host');
  const username = decodeUserinfo(u.username);
  const password = decodeUserinfo(u.password);
  u.username = '';
  u.password = '';
  u.hash = '';
  let url = u.toString();
  if (u.search === '') url = url.replace(/\/+$/, '');
  return username || password ? { url, credentials: { username, password } } : { url };
}
