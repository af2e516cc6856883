import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, isAbsolute } from 'node:path';
import type { SiteRecord, Store } from '../store/index.js';
import { isAllowedLinkUrl } from '../url-policy/index.js';
import { CSP_META_TAG, withCspMeta } from './csp.js';
import { esc } from './escape.js';
import { SEARCH_SHELL_PATH } from './layout.js';

/** Marker of a directory written by Folio: only such a directory (or an empty one) is written into again. */
export const SITE_OUTPUT_MARKER = '.folio-site-output';

export class SiteExportError extends Error {
  readonly code: 'SITE_NOT_PUBLISHED' | 'OUTPUT_NOT_EMPTY' | 'CONTENT_UNAVAILABLE';
  constructor(code: SiteExportError['code'], message: string) {
    super(message);
    this.code = code;
  }
}

function inside(root: string, path: string): string {
  const target = resolve(root, path);
  const rel = relative(root, target);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw new Error(`refusing to write outside the output directory: ${path}`);
  return target;
}

/**
 * A page of the publication as written: with the policy's `<meta>` (a publication rendered before pages carried it
 * gets it here), so the site keeps the Content Security Policy of served sites on any static host.
 */
function htmlWithPolicy(data: Uint8Array): Uint8Array {
  const html = new TextDecoder().decode(data);
  const withMeta = withCspMeta(html);
  return withMeta === null || withMeta === html ? data : new TextEncoder().encode(withMeta);
}

/**
 * Writes the live publication of a site to a directory, for any static host: every file at its path
 * (`guides/install/index.html`, `_files/…`), and each `.gitbook.yaml` redirect as a small page that sends
 * the reader on (`<meta http-equiv="refresh">` and a link). Every HTML file carries the served sites' Content Security
 * Policy as a `<meta http-equiv>` (src/publish/csp.ts). Returns how many files were written.
 */
export async function writeSiteToDirectory(store: Store, site: SiteRecord, outDir: string): Promise<{ files: number; redirects: number }> {
  if (!site.livePublicationId) throw new SiteExportError('SITE_NOT_PUBLISHED', `site ${site.id} has no publication yet`);
  const publication = await store.sites.publication(site.id, site.livePublicationId);
  if (!publication) throw new SiteExportError('SITE_NOT_PUBLISHED', `site ${site.id} has no publication yet`);
  const root = resolve(outDir);
  await mkdir(root, { recursive: true });
  const existing = await readdir(root);
  if (existing.length > 0 && !existing.includes(SITE_OUTPUT_MARKER))
    throw new SiteExportError('OUTPUT_NOT_EMPTY', `${outDir} is not empty and was not written by Folio (${SITE_OUTPUT_MARKER} missing)`);
  // The search page's frame needs the server (a static host has no search): left out.
  const files = (await store.sites.publicationFiles(publication.id)).filter((f) => f.path !== SEARCH_SHELL_PATH);
  const paths = new Set(files.map((f) => f.path));
  for (let i = 0; i < files.length; i += 200) {
    const chunk = files.slice(i, i + 200);
    const bytes = await store.blobs.getMany(chunk.map((f) => f.hash));
    for (const f of chunk) {
      const data = bytes.get(f.hash);
      if (!data) throw new SiteExportError('CONTENT_UNAVAILABLE', `blob ${f.hash} of ${f.path} is missing`);
      const target = inside(root, f.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, f.contentType.startsWith('text/html') ? htmlWithPolicy(data) : data);
    }
  }
  let redirects = 0;
  for (const [from, to] of Object.entries(publication.structure.redirects ?? {})) {
    const path = `${from.replace(/^\/+|\/+$/g, '')}/index.html`;
    if (paths.has(path) || !isAllowedLinkUrl(to)) continue;
    const depth = path.split('/').length - 1;
    const href = '../'.repeat(depth) + to;
    const target = inside(root, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(
      target,
      `<!doctype html><html lang="en"><head><meta charset="utf-8">${CSP_META_TAG}<title>Moved</title><meta http-equiv="refresh" content="0; url=${esc(href)}"><link rel="canonical" href="${esc(href)}"></head><body><p>This page moved: <a href="${esc(href)}">${esc(to)}</a>.</p></body></html>\n`,
    );
    redirects++;
  }
  await writeFile(join(root, SITE_OUTPUT_MARKER), `${site.id}\n`);
  return { files: files.length, redirects };
}
