/**
 * One guard for the text of every request, so every route (and every route added later) is covered: the URL
 * (path parameters and query string, percent-decoded) and JSON bodies must be valid UTF-8 without NUL characters
 * or lone surrogates. Anything else is answered 400 before a route runs, so nothing of it is ever stored.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from './http-errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Why `text` cannot be stored as text (a NUL character or a lone surrogate), or null when it can. */
export function textProblem(text: string): string | null {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return `a NUL character (U+0000) at position ${i}`;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return `a lone surrogate (U+${c.toString(16).toUpperCase()}) at position ${i}`;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return `a lone surrogate (U+${c.toString(16).toUpperCase()}) at position ${i}`;
  }
  return null;
}

/** The first string (member name or value) of a parsed JSON value with a text problem: where and what. */
export function jsonTextProblem(value: unknown, at = 'body'): string | null {
  if (typeof value === 'string') {
    const p = textProblem(value);
    return p ? `${at} holds ${p}` : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = jsonTextProblem(value[i], `${at}[${i}]`);
      if (p) return p;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const kp = textProblem(k);
      if (kp) return `a member name of ${at} holds ${kp}`;
      const p = jsonTextProblem(v, `${at}.${k}`);
      if (p) return p;
    }
  }
  return null;
}

/** Percent-decodes `raw` to bytes (invalid escapes stay as they are) and checks them. */
function urlProblem(raw: string): string | null {
  if (!raw.includes('%')) return textProblem(raw);
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x25 && /^[0-9A-Fa-f]{2}$/.test(raw.slice(i + 1, i + 3))) {
      bytes.push(parseInt(raw.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x80) bytes.push(c);
    else bytes.push(...new TextEncoder().encode(raw[i]!));
  }
  let text: string;
  try {
    text = utf8.decode(Uint8Array.from(bytes));
  } catch {
    return 'percent-encoded bytes that are not valid UTF-8';
  }
  return textProblem(text);
}

/**
 * Fastify's `frameworkErrors`: a URL its router cannot decode (`%ff`, a truncated escape) is answered in Folio's
 * error shape, with the same message as the guard's, instead of fastify's own body.
 */
export function frameworkErrors(err: Error & { code?: string; statusCode?: number }, _request: FastifyRequest, reply: FastifyReply): void {
  const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  const message =
    err.code === 'FST_ERR_BAD_URL'
      ? 'the request URL holds percent-encoded bytes that are not valid UTF-8; paths and query parameters must be valid UTF-8 text without NUL characters'
      : err.message;
  void reply.status(status).send({ error: { code: status, message } });
}

/** The body as text, or undefined after answering 400 when it is not valid UTF-8. */
function bodyText(body: Buffer, done: (err: Error | null, value?: unknown) => void): string | undefined {
  try {
    return utf8.decode(body);
  } catch {
    done(badRequest('the request body is not valid UTF-8'), undefined);
    return undefined;
  }
}

export function installRequestTextGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const problem = urlProblem(request.raw.url ?? request.url);
    if (problem) throw badRequest(`the request URL holds ${problem}; paths and query parameters must be valid UTF-8 text without NUL characters`);
  });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const text = bodyText(body as Buffer, done);
    if (text === undefined) return;
    void parseJson(request, text, (err, value) => {
      if (err) return done(err, undefined);
      const problem = jsonTextProblem(value);
      if (problem) return done(badRequest(`${problem}; text must be valid Unicode without NUL characters`), undefined);
      done(null, value);
    });
  });
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_request, body, done) => {
    const text = bodyText(body as Buffer, done);
    if (text === undefined) return;
    const problem = textProblem(text);
    if (problem) done(badRequest(`the request body holds ${problem}; text must be valid Unicode without NUL characters`), undefined);
    else done(null, text);
  });
}
