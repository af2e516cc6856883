/**
 * The one HTML document a PDF export prints: a title page, the table of contents (with the page number of each
 * section once known), then every page's article, each from a new sheet. The articles are the site renderer's
 * output (src/publish/render), their element ids made unique per section so that anchors work across the document.
 */
import { esc } from '../publish/escape.js';
import { SITE_CSS } from '../publish/style.js';

export interface PrintSection {
  /** Destination name of the section (`sectionAnchor(n)`): a PDF named destination. */
  anchor: string;
  title: string;
  description: string;
  /** Depth in the table of contents (0: top level). */
  depth: number;
  /** The article body, rendered (ids not yet scoped). */
  html: string;
}

export interface PrintDocument {
  title: string;
  subtitle: string;
  language: string;
  sections: PrintSection[];
}

/** Overrides of the site's stylesheet for paper: no frame, light colours, every tab and expandable shown. */
export const PRINT_CSS = `:root{color-scheme:light;--fg:#1d1d1f;--muted:#5b5b66;--bg:#fff;--line:#d0d0d8;--accent:#2251d1;--code:#f5f5f7;font-size:11pt}
body{margin:0;color:var(--fg);background:#fff}
.pdf-cover{break-after:page;padding-top:30vh}
.pdf-cover h1{font-size:2.2rem;margin:0 0 .5rem}
.pdf-cover p{color:var(--muted);font-size:1.1rem}
.pdf-toc{break-after:page}
.pdf-toc ol{list-style:none;margin:0;padding:0}
.pdf-toc li{margin:.2rem 0}
.pdf-toc a{display:flex;gap:.5rem;color:var(--fg);text-decoration:none}
.pdf-toc .t{flex:1;min-width:0}
.pdf-toc .n{flex:none;width:3.5em;text-align:right;font-variant-numeric:tabular-nums}
.pdf-section{break-before:page}
.pdf-section>h1{margin-top:0}
pre{overflow:visible;white-space:pre-wrap;overflow-wrap:anywhere}
.copy-code,.anchor,.tab-input{display:none!important}
.tabs{display:block!important}
.tab-label{display:block!important;font-weight:600;margin-top:.75rem}
.tab-panel{display:block!important}
img{max-width:100%;break-inside:avoid}
table{break-inside:auto}
tr,figure{break-inside:avoid}`;

/** The anchor of the n-th section; links between pages point there (`#folio-page-3`), and scoping leaves them. */
export const sectionAnchor = (n: number) => `folio-page-${n}`;
const SECTION_LINK = /^folio-page-\d+$/;

/** Section `n`'s copy of a rendered body: ids and in-page anchors prefixed with its anchor, expandables open. */
export function scopeSectionHtml(anchor: string, html: string): string {
  return html
    .replace(/(\s)id="([^"]*)"/g, (_m, s: string, id: string) => `${s}id="${anchor}-${id}"`)
    .replace(/(\s)for="([^"]*)"/g, (_m, s: string, id: string) => `${s}for="${anchor}-${id}"`)
    .replace(/(\s)href="#([^"]*)"/g, (m, s: string, id: string) => (SECTION_LINK.test(id) ? m : `${s}href="#${anchor}-${id}"`))
    .replace(/<details(?![^>]*\sopen)/g, '<details open');
}

/**
 * The print document. `pageNumbers` (anchor → page) fills the table of contents; without it the numbers' boxes are
 * left empty: their width is fixed, so the numbers do not change where anything falls.
 */
export function printDocumentHtml(doc: PrintDocument, cssHref: string, pageNumbers?: Map<string, number>): string {
  const toc = doc.sections
    .map(
      (s) =>
        `<li style="padding-left:${Math.min(s.depth, 6) * 1.2}em"><a href="#${s.anchor}"><span class="t">${esc(s.title)}</span><span class="n">${pageNumbers?.get(s.anchor) ?? ''}</span></a></li>`,
    )
    .join('\n');
  const sections = doc.sections
    .map(
      (s) =>
        `<section class="pdf-section" id="${s.anchor}"><h1>${esc(s.title)}</h1>\n${s.description ? `<p class="description">${esc(s.description)}</p>\n` : ''}${scopeSectionHtml(s.anchor, s.html)}</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="${esc(doc.language)}">
<head>
<meta charset="utf-8">
<title>${esc(doc.title)}</title>
<link rel="stylesheet" href="${esc(cssHref)}">
</head>
<body>
<div class="pdf-cover"><h1>${esc(doc.title)}</h1>${doc.subtitle ? `<p>${esc(doc.subtitle)}</p>` : ''}</div>
<nav class="pdf-toc" aria-label="Contents"><h2>Contents</h2><ol>
${toc}
</ol></nav>
${sections}
</body>
</html>
`;
}

/** The stylesheet the print document links: the site's, then the paper overrides. */
export const PRINT_STYLESHEET = `${SITE_CSS}\n${PRINT_CSS}\n`;
