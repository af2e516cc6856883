/**
 * Removes credentials from text before it reaches logs, error messages or Temporal.
 * `https://user:secret@host/x` becomes `https://***@host/x`; bearer tokens are masked.
 */
const URL_USERINFO = /([a-z][a-z0-9+.-]*:\/\/)([^/\s@]+)@/gi;
// The word "token" after "bearer" is prose ("a valid bearer token is required"), not a credential.
const BEARER = /(bearer\s+)(?!token\b)[A-Za-z0-9._~+/=-]+/gi;

export function redact(text: string): string {
  return text.replace(URL_USERINFO, '$1***@').replace(BEARER, '$1***');
}

/** The URL without username and password; unparsable input is redacted as text. */
export function stripCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return redact(url);
  }
}
