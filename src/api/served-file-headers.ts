/**
 * Response headers for the bytes of a stored file (content imported from Git, uploaded by users): untrusted.
 * Every file is served with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`, so a browser
 * neither guesses a scriptable type nor runs script in Folio's origin. Only types a browser renders without
 * script (raster images, audio, video, plain text) are served inline; anything else (HTML, SVG, XML, XHTML, PDF,
 * unknown types) is an attachment. The filename is sent as an ASCII fallback plus RFC 5987 `filename*`.
 */

/** Types served inline: rendered by browsers as inert media or text. Everything else is an attachment. */
export const INLINE_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'text/plain',
]);

const TOKEN = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/;

/** The stored type when it is a well-formed `type/subtype` (parameters kept), else application/octet-stream. */
function safeContentType(contentType: string | null | undefined): { header: string; essence: string } {
  const raw = (contentType ?? '').trim();
  const essence = raw.split(';')[0]!.trim().toLowerCase();
  if (!TOKEN.test(essence) || /[\u0000-\u001f\u007f-\uffff]/.test(raw)) return { header: 'application/octet-stream', essence: 'application/octet-stream' };
  return { header: raw, essence };
}

/** `inline|attachment; filename="ascii"; filename*=UTF-8''percent-encoded`. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_') || 'file';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export function servedFileHeaders(file: { name: string; contentType?: string | null }): Record<string, string> {
  const type = safeContentType(file.contentType);
  const inline = INLINE_CONTENT_TYPES.has(type.essence);
  return {
    'content-type': type.header,
    'x-content-type-options': 'nosniff',
    'content-security-policy': 'sandbox',
    'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', file.name),
  };
}
