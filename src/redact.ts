/**
 * Removes credentials from text before it reaches logs, error messages or Temporal.
 * `https://user:secret@host/x` becomes `https://***@host/x`; bearer tokens are masked; so are the secrets URLs carry
 * in their path or query (`redactUrlSecrets`).
 */
const URL_USERINFO = /([a-z][a-z0-9+.-]*:\/\/)([^/\s@]+)@/gi;
// The word "token" after "bearer" is prose ("a valid bearer token is required"), not a credential.
const BEARER = /(bearer\s+)(?!token\b)[A-Za-z0-9._~+/=-]+/gi;

/** The path segment after `/storage/uploads/` or `/pdf-exports/`: a signed URL's secret (the store keeps only its hash). */
const UPLOAD_SECRET = /(\/storage\/uploads\/|\/pdf-exports\/)[^/?#\s"'<>]+/gi;
/**
 * Query parameters that carry a secret: a share link's key (`?share=`), tokens, API keys, signatures of signed URLs
 * (S3's `X-Amz-Signature`/`X-Amz-Credential`/`X-Amz-Security-Token`, Google's `X-Goog-Signature`), passwords.
 */
const SECRET_QUERY =
  /([?&;](?:share|token|access_token|refresh_token|id_token|api_key|apikey|api-key|key|secret|client_secret|signature|sig|password|passwd|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential)=)[^&#\s"'<>]+/gi;

/** The secrets of a URL's path and query masked (`/storage/uploads/***`, `?share=***`); the rest unchanged. */
export function redactUrlSecrets(text: string): string {
  return text.replace(UPLOAD_SECRET, '$1***').replace(SECRET_QUERY, '$1***');
}

export function redact(text: string): string {
  return redactUrlSecrets(text.replace(URL_USERINFO, '$1***@').replace(BEARER, '$1***'));
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
