/**
 * The engines against loopback servers that speak their real protocols (LibreTranslate, DeepL, OpenAI chat
 * completions, apertium-apy), through the fetch guard (loopback allowlisted like an operator's internal server);
 * and the Apertium command with the pairs installed on this machine.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApertiumEngine, DeepLEngine, LibreTranslateEngine, OpenAiEngine, installedModes } from '../../src/translate/engines/index.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Upper-cases text, keeps tags and entities: what a translating server does to a segment. */
function upper(markup: string): string {
  return markup.replace(/(<[^>]+>|&[a-z]+;)|([^<&]+)/g, (_all, tag: string | undefined, text: string | undefined) => (tag ? tag : text!.toUpperCase()));
}

let server: http.Server;
let base: string;
const seen: Seen[] = [];
/** Statuses to answer before the real answer, per path. */
const failures = new Map<string, Array<{ status: number; headers?: Record<string, string> }>>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://x');
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const fail = failures.get(url.pathname)?.shift();
      if (fail) {
        res.writeHead(fail.status, { 'content-type': 'application/json', ...fail.headers });
        return res.end(JSON.stringify({ error: 'try again' }));
      }
      const json = (value: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (url.pathname === '/lt/languages') return json([{ code: 'en', targets: ['en', 'es', 'fr'] }]);
      if (url.pathname === '/lt/translate') {
        const q = JSON.parse(body) as { q: string[] };
        return json({ translatedText: q.q.map(upper) });
      }
      if (url.pathname === '/deepl/v2/languages') {
        if (req.headers.authorization !== 'DeepL-Auth-Key secret-deepl') return res.writeHead(403).end();
        return json(url.searchParams.get('type') === 'source' ? [{ language: 'EN' }, { language: 'DE' }] : [{ language: 'ES' }, { language: 'EN-US' }]);
      }
      if (url.pathname === '/deepl/v2/translate') {
        if (req.headers.authorization !== 'DeepL-Auth-Key secret-deepl') return res.writeHead(403).end();
        const q = JSON.parse(body) as { text: string[] };
        return json({ translations: q.text.map((text) => ({ detected_source_language: 'EN', text: upper(text) })) });
      }
      if (url.pathname === '/openai/chat/completions') {
        if (req.headers.authorization !== 'Bearer secret-openai') return res.writeHead(401).end();
        const q = JSON.parse(body) as { messages: Array<{ content: string }> };
        const segments = JSON.parse(q.messages[1]!.content) as string[];
        return json({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ translations: segments.map(upper) }) } }] });
      }
      if (url.pathname === '/apy/listPairs') return json({ responseData: [{ sourceLanguage: 'eng', targetLanguage: 'spa' }], responseStatus: 200 });
      if (url.pathname === '/apy/translate') {
        const form = new URLSearchParams(body);
        if (form.get('langpair') !== 'eng|spa' || form.get('format') !== 'html') return res.writeHead(400).end();
        return json({ responseData: { translatedText: upper(form.get('q')!) }, responseStatus: 200 });
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

const request = { source: 'en', target: 'es', glossary: [] };
const fast = { policy: loopbackPolicy, backoffMs: 1, requestsPerSecond: 1000 };

describe('HTTP engines', () => {
  it('LibreTranslate: pairs from /languages, segments as one q array in HTML format', async () => {
    const engine = new LibreTranslateEngine({ url: `${base}/lt`, apiKey: 'lt-key', ...fast });
    await engine.checkPair('en', 'es');
    await expect(engine.checkPair('en', 'ja')).rejects.toMatchObject({ code: 'TRANSLATION_PAIR_UNSUPPORTED', message: expect.stringContaining('en-es') });
    seen.length = 0;
    expect(await engine.translate(['Hello <x1>world</x1>', 'A &amp; B <x2/>'], request)).toEqual(['HELLO <x1>WORLD</x1>', 'A &amp; B <x2/>']);
    expect(JSON.parse(seen[0]!.body)).toEqual({
      q: ['Hello <x1>world</x1>', 'A &amp; B <x2/>'],
      source: 'en',
      target: 'es',
      format: 'html',
      api_key: 'lt-key',
    });
  });

  it('retries 429 and 5xx (Retry-After honoured), not 4xx; 401/403 is an auth error', async () => {
    const engine = new LibreTranslateEngine({ url: `${base}/lt`, ...fast });
    failures.set('/lt/translate', [{ status: 429, headers: { 'retry-after': '0' } }, { status: 503 }]);
    seen.length = 0;
    expect(await engine.translate(['one'], request)).toEqual(['ONE']);
    expect(seen.filter((s) => s.url === '/lt/translate')).toHaveLength(3);
    failures.set('/lt/translate', [{ status: 400 }]);
    seen.length = 0;
    await expect(engine.translate(['one'], request)).rejects.toMatchObject({ code: 'TRANSLATION_ENGINE_FAILED', retryable: false });
    expect(seen).toHaveLength(1);
    failures.set('/lt/translate', [{ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }]);
    await expect(engine.translate(['one'], request)).rejects.toMatchObject({ code: 'TRANSLATION_ENGINE_FAILED', retryable: true });
    failures.set('/lt/translate', [{ status: 401 }]);
    await expect(engine.translate(['one'], request)).rejects.toMatchObject({ code: 'TRANSLATION_ENGINE_AUTH' });
    failures.clear();
  });

  it('DeepL: the key in its header, XML tag handling, its language codes', async () => {
    const engine = new DeepLEngine({ url: `${base}/deepl`, apiKey: 'secret-deepl', ...fast });
    await engine.checkPair('en', 'es');
    await expect(engine.checkPair('en', 'ja')).rejects.toMatchObject({ code: 'TRANSLATION_PAIR_UNSUPPORTED' });
    seen.length = 0;
    expect(await engine.translate(['Hi <x1/>'], request)).toEqual(['HI <x1/>']);
    expect(JSON.parse(seen[0]!.body)).toEqual({ text: ['Hi <x1/>'], source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml' });
    const wrong = new DeepLEngine({ url: `${base}/deepl`, apiKey: 'wrong', ...fast });
    const err = await wrong.translate(['Hi'], request).catch((e: unknown) => e as Error);
    expect(err).toMatchObject({ code: 'TRANSLATION_ENGINE_AUTH' });
    expect(err.message).not.toContain('wrong');
  });

  it('OpenAI-compatible chat: instructions and glossary in the system prompt, one translation per segment', async () => {
    const engine = new OpenAiEngine({ url: `${base}/openai`, apiKey: 'secret-openai', model: 'test-model', ...fast });
    seen.length = 0;
    const out = await engine.translate(['Sign in', 'Use <x1>Folio</x1>'], {
      ...request,
      glossary: [{ source: 'Folio', target: 'Folio' }],
      instructions: 'Use the informal tú.',
    });
    expect(out).toEqual(['SIGN IN', 'USE <x1>FOLIO</x1>']);
    const body = JSON.parse(seen[0]!.body) as { model: string; messages: Array<{ role: string; content: string }> };
    expect(body.model).toBe('test-model');
    expect(body.messages[0]!.content).toContain('Folio → Folio');
    expect(body.messages[0]!.content).toContain('Use the informal tú.');
    expect(body.messages[0]!.content).toContain('English (en) to Spanish (es)');
    await expect(new OpenAiEngine({ url: `${base}/openai`, model: 'm', ...fast }).translate(['x'], request)).rejects.toMatchObject({
      code: 'TRANSLATION_ENGINE_AUTH',
    });
  });

  it('goes through the fetch guard: a private address is refused unless allowlisted', async () => {
    const engine = new LibreTranslateEngine({ url: `${base}/lt`, backoffMs: 1 });
    seen.length = 0;
    await expect(engine.translate(['one'], request)).rejects.toMatchObject({ code: 'FETCH_PRIVATE_ADDRESS_DENIED' });
    expect(seen).toHaveLength(0);
  });
});

describe('Apertium', () => {
  it('lists the pairs installed on this machine and refuses another with that list', async () => {
    const modes = await installedModes();
    expect(modes).toContain('eng-spa');
    const engine = new ApertiumEngine();
    await engine.checkPair('en', 'es');
    const err = await engine.checkPair('en', 'ja').catch((e: unknown) => e as Error);
    expect(err).toMatchObject({ code: 'TRANSLATION_PAIR_UNSUPPORTED' });
    expect(err.message).toContain('installed pairs: ');
    expect(err.message).toContain('eng-spa');
  });

  it('the apertium command keeps the placeholders and the escapes', async () => {
    const out = await new ApertiumEngine().translate(['The <x1>big</x1> house &amp; the <x2/> dog.', 'Hello world'], request);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(/<x1>[^<]+<\/x1>/);
    expect(out[0]).toContain('<x2/>');
    expect(out[0]).toContain('&amp;');
    expect(out[1]).toMatch(/Hola/);
  });

  it('an apertium-apy server: its pairs, one HTML document per batch', async () => {
    const engine = new ApertiumEngine({ apyUrl: `${base}/apy`, ...fast });
    await expect(engine.checkPair('en', 'fr')).rejects.toMatchObject({ code: 'TRANSLATION_PAIR_UNSUPPORTED', message: expect.stringContaining('eng-spa') });
    expect(await engine.translate(['a <x1/>', 'b'], request)).toEqual(['A <x1/>', 'B']);
  });
});
