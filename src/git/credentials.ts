/**
 * Credentials travel out of the URL and into isomorphic-git's `onAuth` only. A credential the
 * remote rejects is never offered twice: the second 401 ends the operation with AUTH_FAILED.
 */
import type { AuthCallback, AuthFailureCallback, GitAuth } from 'isomorphic-git';
import { splitUrlCredentials } from '../net/url-credentials.js';

export interface GitCredentials {
  username: string;
  password: string;
}

export interface SplitUrl {
  /** The URL without userinfo: safe to log and to put in errors. */
  url: string;
  auth?: GitCredentials;
}

/**
 * The credential-free URL (normalised by the one splitter, src/net/url-credentials.ts) and the credentials to use:
 * explicit `auth` wins over URL userinfo.
 */
export function resolveRemote(rawUrl: string, auth?: GitCredentials): SplitUrl {
  const split = splitUrlCredentials(rawUrl);
  const chosen = auth ?? split.credentials;
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
