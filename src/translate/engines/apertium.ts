/**
 * Apertium, the default engine: offline rule-based translation with the Debian packages `apertium` and a pair
 * (`apertium-eng-spa`, …). Through an `apertium-apy` HTTP server when `FOLIO_APERTIUM_URL` names one, else the
 * `apertium` command. Both use Apertium's HTML mode: the placeholders are tags, which Apertium keeps as they are.
 * A page's segments go in one document (one process or one request), each in its own `<div>`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FetchPolicy } from '../../net/policy.js';
import { TranslationEngineError, TranslationEngineResponseError, TranslationPairUnsupportedError } from '../errors.js';
import { translateInBatches, type EngineRequest, type TranslationEngine } from './engine.js';
import { findMode, installedModes } from './apertium-pairs.js';
import { HttpEngineClient } from './http-client.js';

const MAX_BATCH_CHARS = 100_000;
const MAX_BATCH_ITEMS = 1000;
const DIV = /<div data-s="(\d+)">([\s\S]*?)<\/div>/g;

export interface ApertiumOptions {
  /** The `apertium` command (default `apertium` on PATH). */
  command?: string;
  /** An apertium-apy server; when set, the command is not used. */
  apyUrl?: string;
  modesDir?: string;
  timeoutMs?: number;
  policy?: FetchPolicy;
  requestsPerSecond?: number;
}

function wrap(segments: readonly string[]): string {
  return segments.map((s, i) => `<div data-s="${i}">${s}</div>\n`).join('');
}

function unwrap(output: string, count: number): string[] {
  const out = new Array<string | undefined>(count);
  for (const m of output.matchAll(DIV)) {
    const i = Number(m[1]);
    if (i < count) out[i] = m[2]!.replace(/ {2,}/g, ' ');
  }
  const missing = out.findIndex((s) => s === undefined);
  if (missing >= 0) throw new TranslationEngineResponseError('apertium', `segment ${missing} is missing from the output`);
  return out as string[];
}

export class ApertiumEngine implements TranslationEngine {
  readonly name = 'apertium';
  private readonly http: HttpEngineClient | null;

  constructor(private readonly options: ApertiumOptions = {}) {
    this.http = options.apyUrl
      ? new HttpEngineClient('apertium', { policy: options.policy, requestsPerSecond: options.requestsPerSecond, timeoutMs: options.timeoutMs })
      : null;
  }

  /** The installed pairs (`eng-spa`, …): the apy server's, or the modes on this machine. */
  async pairs(): Promise<string[]> {
    if (this.http) {
      const body = (await this.http.json(new URL('listPairs', this.base()).toString(), { method: 'GET' })) as {
        responseData?: Array<{ sourceLanguage: string; targetLanguage: string }>;
      };
      return (body.responseData ?? []).map((p) => `${p.sourceLanguage}-${p.targetLanguage}`).sort();
    }
    return installedModes(this.options.modesDir);
  }

  private base(): string {
    const url = this.options.apyUrl!;
    return url.endsWith('/') ? url : `${url}/`;
  }

  private async mode(source: string, target: string): Promise<string> {
    const pairs = await this.pairs();
    const mode = findMode(pairs, source, target);
    if (!mode) throw new TranslationPairUnsupportedError('apertium', source, target, pairs);
    return mode;
  }

  async checkPair(source: string, target: string): Promise<void> {
    await this.mode(source, target);
  }

  async translate(segments: readonly string[], request: EngineRequest): Promise<string[]> {
    if (segments.length === 0) return [];
    const mode = await this.mode(request.source, request.target);
    return translateInBatches(segments, request, { maxItems: MAX_BATCH_ITEMS, maxChars: MAX_BATCH_CHARS, engine: 'apertium' }, async (batch) => {
      const doc = wrap(batch);
      const translated = this.http ? await this.viaApy(mode, doc, request.signal) : await this.viaCommand(mode, doc, request.signal);
      return unwrap(translated, batch.length);
    });
  }

  private async viaApy(mode: string, doc: string, signal?: AbortSignal): Promise<string> {
    const [s, t] = mode.split('-');
    const form = new URLSearchParams({ langpair: `${s}|${t}`, q: doc, markUnknown: 'no', format: 'html' });
    const body = (await this.http!.json(new URL('translate', this.base()).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      signal,
    })) as { responseData?: { translatedText?: unknown }; responseStatus?: number; message?: string };
    const text = body.responseData?.translatedText;
    if (typeof text !== 'string')
      throw new TranslationEngineResponseError('apertium', `apy answered no translatedText (${String(body.message ?? body.responseStatus)})`);
    return text;
  }

  /**
   * The `apertium` script reads its input by path (`/dev/stdin` by default, which a socket cannot be opened as):
   * the document goes through a file in a private temporary directory.
   */
  private async viaCommand(mode: string, doc: string, signal?: AbortSignal): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'folio-apertium-'));
    try {
      const input = path.join(dir, 'input.html');
      await writeFile(input, doc, { mode: 0o600 });
      return await this.run(mode, input, signal);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private run(mode: string, input: string, signal?: AbortSignal): Promise<string> {
    const command = this.options.command ?? 'apertium';
    const timeoutMs = this.options.timeoutMs ?? 120_000;
    return new Promise((resolve, reject) => {
      const child = spawn(command, ['-u', '-f', 'html', mode, input], { stdio: ['pipe', 'pipe', 'pipe'], signal, timeout: timeoutMs, killSignal: 'SIGKILL' });
      const stdout: Buffer[] = [];
      let stderr = '';
      child.stdout.on('data', (b: Buffer) => stdout.push(b));
      child.stderr.on('data', (b: Buffer) => {
        if (stderr.length < 2000) stderr += b.toString('utf8');
      });
      child.on('error', (err) => reject(new TranslationEngineError('apertium', `cannot run ${command}: ${err.message}`, { cause: err })));
      child.on('close', (code, sig) => {
        if (code === 0) resolve(Buffer.concat(stdout).toString('utf8'));
        else reject(new TranslationEngineError('apertium', `${command} ${mode} ended with ${sig ?? `code ${code}`}: ${stderr.trim().slice(0, 500)}`));
      });
      child.stdin.end();
    });
  }
}
