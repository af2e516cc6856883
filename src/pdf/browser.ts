/**
 * The Chromium that prints PDF exports: Debian's chromium driven by puppeteer-core, one browser per export with a
 * fresh profile directory (removed afterwards). It faces untrusted content, so the page has no network at all:
 * JavaScript is off, every request is intercepted and only the export's own documents and files (served from
 * memory at PRINT_ORIGIN) are answered; anything else is aborted, and host names resolve nowhere.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type PDFOptions } from 'puppeteer-core';
import { FolioError } from '../errors.js';

/** The address the print documents are served at (a reserved name: never resolved). */
export const PRINT_ORIGIN = 'https://print.folio.invalid';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND',
];

/** What the page may load: path (after PRINT_ORIGIN) → bytes. */
export type PrintAssets = (pathname: string) => Promise<{ contentType: string; body: Uint8Array } | null>;

export interface Printer {
  /** Prints the document at `/` (from `assets`) to PDF; `blocked` counts requests refused. */
  print(assets: PrintAssets, options: PDFOptions): Promise<{ pdf: Uint8Array; blocked: string[] }>;
  close(): Promise<void>;
}

export async function launchPrinter(executablePath: string, signal: AbortSignal): Promise<Printer> {
  const profile = await mkdtemp(path.join(tmpdir(), 'folio-pdf-'));
  let browser: Browser;
  try {
    browser = await puppeteer.launch({ executablePath, headless: true, userDataDir: profile, args: CHROMIUM_ARGS, pipe: true, signal });
  } catch (err) {
    await rm(profile, { recursive: true, force: true });
    throw new FolioError('PDF_BROWSER_UNAVAILABLE', `chromium could not be started (${executablePath}): ${(err as Error).message.slice(0, 300)}`, {
      retryable: true,
      cause: err,
    });
  }
  const close = async () => {
    await browser.close().catch(() => browser.process()?.kill('SIGKILL'));
    await rm(profile, { recursive: true, force: true });
  };
  const onAbort = () => void browser.process()?.kill('SIGKILL');
  signal.addEventListener('abort', onAbort, { once: true });
  return {
    async print(assets, options) {
      const page = await browser.newPage();
      try {
        await page.setJavaScriptEnabled(false);
        await page.setRequestInterception(true);
        const blocked: string[] = [];
        page.on('request', (request) => {
          const url = request.url();
          const local = url.startsWith(`${PRINT_ORIGIN}/`) ? new URL(url).pathname : null;
          void (async () => {
            const asset = local !== null && request.method() === 'GET' ? await assets(decodeURIComponent(local)).catch(() => null) : null;
            if (asset) await request.respond({ status: 200, contentType: asset.contentType, body: Buffer.from(asset.body) });
            else {
              if (!url.startsWith('data:')) blocked.push(url.slice(0, 200));
              await request.abort('blockedbyclient');
            }
          })().catch(() => {});
        });
        await page.goto(`${PRINT_ORIGIN}/`, { waitUntil: 'load', timeout: 0, signal } as Parameters<typeof page.goto>[1]);
        const pdf = await page.pdf({ ...options, timeout: 0 });
        return { pdf, blocked };
      } finally {
        await page.close().catch(() => {});
      }
    },
    async close() {
      signal.removeEventListener('abort', onAbort);
      await close();
    },
  };
}
