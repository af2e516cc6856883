/**
 * Credentials travel out of the URL and into isomorphic-git's `onAuth` only. A credential the
 * remote rejects is never offered twice: the second 401 ends the operation with AUTH_FAILED.
 */
import type { AuthCallback, AuthFailureCallback, GitAuth } from 'isomorphic-git';

export interface GitCredentials {
  username: string;
  password: string;
}

export interface SplitUrl {
  /** The URL without userinfo: safe to log and to put in errors. */
  url: string;
  auth?: GitCredentials;
}

/** `https://user:pass@host/r.git` → `{ url: 'https://host/r.git', auth: { username: 'user', password: 'pass' } }`. */
export function splitCredentials(rawUrl: string): SplitUrl {
  let u: URL;
  try {
    u = new URL(rawUrl);
  } catch {
    throw new TypeError('invalid git URL (unparsable)');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`unsupported git URL scheme ${u.protocol} (only http and https)`);
  const username = decodeURIComponent(u.username);
  const password = decodeURIComponent(u.password);
  u.username = '';
  u.password = '';
  const url = u.toString().replace(/\/+$/, '');
  if (!username && !password) return { url };
  return { url, auth: { username, password } };
}

/** The credential-free URL and the credentials to use: explicit `auth` wins over URL userinfo. */
export function resolveRemote(rawUrl: string, auth?: GitCredentials): SplitUrl {
  const split = splitCredentials(rawUrl);
  const chosen = auth ?? split.auth;
  return chosen ? { url: split.url, auth: chosen } : { url: split.url };
}

export interface AuthHandlers {
  onAuth: AuthCallback;
  onAuthFailure: AuthFailureCallback;
  /** True once the remote rejected the offered credential (or asked for one we do not have). */
  readonly rejected: boolean;
  /** Strings that must never appear in messages. */
  readonly secrets: string[];
}

/**
 * onAuth hands the credential over once; onAuthFailure cancels instead of looping, and
 * records the rejection so the caller can report AUTH_FAILED.
 */
export function authHandlers(auth?: GitCredentials): AuthHandlers {
  let rejected = false;
  return {
    onAuth: (): GitAuth | void => {
      if (!auth) {
        rejected = true;
        return { cancel: true };
      }
      return { username: auth.username, password: auth.password };
    },
    onAuthFailure: (): GitAuth => {
      rejected = true;
      return { cancel: true };
    },
    get rejected() {
      return rejected;
    },
    secrets: auth ? [auth.password, encodeURIComponent(auth.password)].filter((s) => s.length >= 3) : [],
  };
}
