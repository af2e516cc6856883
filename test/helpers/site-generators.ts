/**
 * Real static-site generators over a corpus repository: HonKit (npm devDependency), MkDocs and Sphinx with MyST
 * (Debian packages). The GitBook source pages are first written as plain markdown each generator understands
 * (`{% hint %}` → that generator's admonition, tabs → titled sections, …) and the site is built into a temporary
 * directory cached by generator + repository + a hash of this harness, the source files and the generators' versions,
 * so a second run reuses it.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { corpusDir } from '../../src/project-root.js';

const run = promisify(execFile);

export type Generator = 'honkit' | 'mkdocs' | 'sphinx';
export const GENERATORS: Generator[] = ['honkit', 'mkdocs', 'sphinx'];

/** The corpus of real GitBook repositories (`FOLIO_CORPUS`, else `shared/corpus` beside the checkout). */
export const CORPUS = corpusDir();

/** One source page in the order of `SUMMARY.md`. */
export interface SummaryEntry {
  title: string;
  /** Repository path of the `.md` file. */
  path: string;
  depth: number;
  /** The `## group` heading it sits under, if any. */
  group: string | null;
}

export interface BuiltPage {
  /** Repository path of the source `.md`. */
  source: string;
  /** Path of the generated HTML file under `outDir`. */
  file: string;
  /** The page's URL path on the site (what links point to), e.g. `/lists.html` or `/lists/`. */
  urlPath: string;
}

export interface BuiltSite {
  generator: Generator;
  repo: string;
  /** The repository's docs root in the corpus (the space's root: `SUMMARY.md`, pages, `.gitbook/assets/`). */
  sourceDir: string;
  /** Directory holding the generated site. */
  outDir: string;
  pages: BuiltPage[];
  summary: SummaryEntry[];
}

const harnessHash = createHash('sha256')
  .update(await readFile(fileURLToPath(import.meta.url)))
  .digest('hex')
  .slice(0, 12);

/**
 * What a built site is made from besides this harness: the source files (paths and bytes) and the generators'
 * versions (HonKit's in package-lock.json, the Debian Python packages' from their metadata directories), so that a
 * site is built anew when any of them changes (a site is kept between runs in the temporary directory).
 */
async function inputsHash(source: string): Promise<string> {
  const hash = createHash('sha256');
  const lock = JSON.parse(await readFile(fileURLToPath(new URL('../../package-lock.json', import.meta.url)), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  hash.update(`honkit ${lock.packages['node_modules/honkit']?.version ?? ''}\0`);
  const python = await readdir('/usr/lib/python3/dist-packages').catch(() => [] as string[]);
  for (const name of python.filter((n) => /^(mkdocs|sphinx|myst_parser|markdown|pygments|docutils)[-_][\d.]+.*info$/i.test(n)).sort()) hash.update(`${name}\0`);
  for (const file of (await listFiles(source)).sort())
    hash
      .update(`${file}\0`)
      .update(await readFile(join(source, file)))
      .update('\0');
  return hash.digest('hex').slice(0, 12);
}

/** Build (or reuse) the site of corpus repository `repo` (`owner+name`) with `generator`. */
export async function buildSite(generator: Generator, repo: string): Promise<BuiltSite> {
  const docsRoot = /^root:\s*(.*)$/m.exec(await readFile(join(CORPUS, `${repo}.source`), 'utf8'))?.[1]?.trim() ?? '.';
  const source = join(CORPUS, repo, docsRoot);
  const root = join(tmpdir(), 'folio-site-generators', `${generator}-${repo}-${harnessHash}-${await inputsHash(source)}`);
  const summary = parseSummary(await readFile(join(source, 'SUMMARY.md'), 'utf8'));
  const pages = summary.map((entry) => ({ source: entry.path, ...outputOf(generator, entry.path) }));
  const outDir = join(root, 'site');
  const done = join(root, 'built.ok');
  if (!(await exists(done))) {
    await rm(root, { recursive: true, force: true });
    const src = join(root, 'src');
    await mkdir(src, { recursive: true });
    await writeSources(generator, source, src, summary);
    await build(generator, src, outDir);
    await writeFile(done, new Date().toISOString());
  }
  return { generator, repo, sourceDir: source, outDir, pages, summary };
}

/** `* [Title](path.md)` lines (indented for depth) and `## Group` headings of a GitBook `SUMMARY.md`. */
export function parseSummary(text: string): SummaryEntry[] {
  const entries: SummaryEntry[] = [];
  let group: string | null = null;
  for (const line of text.split('\n')) {
    const heading = /^##+\s+(.*)$/.exec(line);
    if (heading) group = heading[1]!.trim();
    // `* [Title](path.md)`, also with a link title (`(path.md "Title")`); an entry with an anchor points into a page
    // listed already, and each page is listed once.
    const item = /^(\s*)[*-]\s+\[(.*)\]\(<?([^)\s#>]+\.md)>?(?:\s+"[^"]*")?\)/.exec(line);
    if (item && entries.some((e) => e.path === decodeURI(item[3]!))) continue;
    // The link text is markdown: its backslash escapes (`wandb.log\\(\\)`) are not part of the title.
    if (item) entries.push({ title: item[2]!.replace(/\\([!-/:-@[-`{-~])/g, '$1'), path: decodeURI(item[3]!), depth: Math.floor(item[1]!.length / 2), group });
  }
  return entries;
}

function outputOf(generator: Generator, path: string): { file: string; urlPath: string } {
  const base = path.replace(/\.md$/, '');
  const isReadme = /(^|\/)README$/.test(base);
  const dir = isReadme ? base.slice(0, -'README'.length) : null;
  if (generator === 'mkdocs') {
    if (dir !== null) return { file: `${dir}index.html`, urlPath: `/${dir}` };
    return { file: `${base}/index.html`, urlPath: `/${base}/` };
  }
  if (generator === 'honkit' && dir !== null) return { file: `${dir}index.html`, urlPath: `/${dir}` };
  return { file: `${base}.html`, urlPath: `/${base}.html` };
}

async function writeSources(generator: Generator, from: string, to: string, summary: SummaryEntry[]): Promise<void> {
  // Only the pages of SUMMARY.md are published (as GitBook does): another `.md` could take a page's URL on the site
  // (MkDocs builds `run-page.md` and `run-page/README.md` both to `run-page/index.html`).
  const published = new Set(summary.map((e) => e.path));
  for (const file of await listFiles(from)) {
    const target = join(to, assetPath(file, generator));
    if (file.endsWith('.md') && !published.has(file)) continue;
    await mkdir(dirname(target), { recursive: true });
    if (file.endsWith('.md')) {
      await writeFile(target, plainMarkdown(await readFile(join(from, file), 'utf8'), generator, file));
    } else if (!file.endsWith('.md')) {
      await cp(join(from, file), target);
    }
  }
  if (generator === 'honkit') {
    await writeFile(join(to, 'SUMMARY.md'), await readFile(join(from, 'SUMMARY.md'), 'utf8'));
    // No search index: the import never reads it, and lunr's index of a page with a very long word (a hex
    // transaction, a base64 blob) nests too deep for its JSON.stringify (BlockRazor's docs fail the build so).
    await writeFile(join(to, 'book.json'), JSON.stringify({ title: 'Corpus', plugins: ['-sharing', '-fontsettings', '-search', '-lunr'] }));
  } else if (generator === 'mkdocs') {
    await writeFile(join(to, '..', 'mkdocs.yml'), mkdocsConfig(summary));
  } else {
    await writeFile(join(to, 'conf.py'), sphinxConfig());
    const readme = join(to, 'README.md');
    await writeFile(readme, (await readFile(readme, 'utf8')) + sphinxToctrees(summary));
  }
}

function mkdocsConfig(summary: SummaryEntry[]): string {
  const lines = ['site_name: Corpus', 'docs_dir: src', 'site_dir: site', 'markdown_extensions:', '  - admonition', '  - tables', 'nav:'];
  let group: string | null = null;
  for (const entry of summary) {
    if (entry.group !== group && entry.group) lines.push(`  - ${JSON.stringify(entry.group)}:`);
    group = entry.group;
    const indent = group ? '      ' : '  ';
    lines.push(`${indent}- ${JSON.stringify(entry.title)}: ${JSON.stringify(entry.path)}`);
  }
  return lines.join('\n') + '\n';
}

function sphinxConfig(): string {
  return [
    "project = 'Corpus'",
    "root_doc = 'README'",
    "extensions = ['myst_parser']",
    "myst_enable_extensions = ['dollarmath']",
    'myst_heading_anchors = 6',
    "source_suffix = {'.md': 'markdown'}",
    "exclude_patterns = ['_build', 'SUMMARY.md']",
    "html_theme = 'alabaster'",
    "html_sidebars = {'**': ['navigation.html', 'searchbox.html']}",
    'suppress_warnings = ["myst.header", "myst.xref_missing", "misc.highlighting_failure"]',
    '',
  ].join('\n');
}

function sphinxToctrees(summary: SummaryEntry[]): string {
  const groups = new Map<string | null, string[]>();
  for (const entry of summary.slice(1)) {
    const list = groups.get(entry.group) ?? [];
    list.push(entry.path.replace(/\.md$/, ''));
    groups.set(entry.group, list);
  }
  let text = '';
  for (const [group, docs] of groups) {
    text += `\n\n\`\`\`{toctree}\n:hidden:\n${group ? `:caption: ${group}\n` : ''}\n${docs.join('\n')}\n\`\`\`\n`;
  }
  return text;
}

async function build(generator: Generator, src: string, outDir: string): Promise<void> {
  const options = { maxBuffer: 64 * 1024 * 1024, timeout: 300_000 };
  if (generator === 'honkit') {
    const bin = fileURLToPath(new URL('../../node_modules/.bin/honkit', import.meta.url));
    await run(bin, ['build', src, outDir], options);
  } else if (generator === 'mkdocs') {
    await run('mkdocs', ['build', '--quiet', '--config-file', join(src, '..', 'mkdocs.yml')], options);
  } else {
    await run('/usr/bin/python3', ['-m', 'sphinx', '-b', 'html', '-q', src, outDir], options);
  }
}

/**
 * GitBook keeps assets under `.gitbook/assets/`; MkDocs skips dot-directories, so every generator gets `assets/`.
 * MyST (Sphinx) percent-encodes the spaces of a markdown image's path and then finds no such file, so Sphinx gets
 * them as `-` (the page's reference is rewritten alike; the bytes are the same, which is what the measure compares).
 */
function assetPath(path: string, generator: Generator): string {
  const moved = path.replace(/^\.gitbook\/assets\//, 'assets/');
  return generator === 'sphinx' ? sphinxName(moved) : moved;
}

function sphinxName(path: string): string {
  return path.replace(/ /g, '-');
}

const HINT_TYPES: Record<Generator, Record<string, string>> = {
  honkit: {},
  mkdocs: { info: 'note', success: 'tip', warning: 'warning', danger: 'danger' },
  sphinx: { info: 'note', success: 'tip', warning: 'warning', danger: 'danger' },
};

/**
 * A GitBook page as plain markdown for `generator`: front matter dropped, hints → admonitions (HonKit: quotes),
 * tabs → a bold title before each tab's content, `{% code %}`/`{% embed %}`/… tags unwrapped (embeds and page
 * references become links), HTML images → markdown images (generators rewrite only those), asset paths moved out
 * of `.gitbook/`.
 */
export function plainMarkdown(text: string, generator: Generator, path: string): string {
  const body = text
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    // A footnote holding only a code block: MyST drops the block, so it goes into the page's flow.
    .replace(
      /^\[\^[^\]]+\]:[ \t]*(```[^\n]*\n)((?: {4}[^\n]*\n|\n)*?) {4}```[ \t]*$/gm,
      (_m, open: string, code: string) => `${open}${code.replace(/^ {4}/gm, '')}\`\`\``,
    );
  // An HTML image's path may hold spaces, which a markdown image's may not: they are written `%20`.
  const toAssets = (src: string): string => src.replace(/(^|\/)\.gitbook\/assets\//, '$1assets/').replace(/ /g, '%20');
  const out: string[] = [];
  const hints: { depth: number }[] = [];
  const hintStyles: string[] = [];
  let fence: string | null = null;
  const prefix = (): string => {
    if (hints.length === 0) return '';
    if (generator === 'honkit') return '> '.repeat(hints.length);
    if (generator === 'mkdocs') return '    '.repeat(hints.length);
    return '';
  };
  // Python-Markdown's fenced code is only read at the left margin: MkDocs gets an indented one (in a list item)
  // moved out to the margin, its lines dedented by the fence's indentation.
  let fenceIndent = 0;
  const dedent = (text: string): string => text.slice(Math.min(fenceIndent, /^ */.exec(text)![0].length));
  for (let line of body.split('\n')) {
    const fenceMark = /^\s*(```+|~~~+)/.exec(line);
    // Python-Markdown's fenced code does not nest in an admonition: MkDocs gets the code after it, then the rest.
    const lift = generator === 'mkdocs' && hints.length > 0;
    if (fence) {
      const closing = fenceMark !== null && fenceMark[1]!.startsWith(fence);
      out.push((lift ? '' : prefix()) + dedent(line));
      if (closing) {
        fence = null;
        if (fenceIndent > 0) out.push('');
        if (lift) out.push('', ...hintStyles.map((style, depth) => `${'    '.repeat(depth)}!!! ${style}`), '');
      }
      continue;
    }
    if (fenceMark) {
      fence = fenceMark[1]!;
      fenceIndent = generator === 'mkdocs' ? /^ */.exec(line)![0].length : 0;
      if (lift || fenceIndent > 0) out.push('');
      out.push((lift ? '' : prefix()) + dedent(line));
      continue;
    }
    const tag = /^\s*\{%\s*([\w-]+)(.*?)%\}\s*$/.exec(line);
    if (tag) {
      const [, name, rest] = tag as unknown as [string, string, string];
      const attr = (key: string): string | null => new RegExp(`${key}="([^"]*)"`).exec(rest)?.[1] ?? null;
      if (name === 'hint') {
        const style = attr('style') ?? 'info';
        if (generator === 'mkdocs') out.push(`${prefix()}!!! ${HINT_TYPES.mkdocs[style] ?? 'note'}`, '');
        else if (generator === 'sphinx') out.push(`\`\`\`\`{${HINT_TYPES.sphinx[style] ?? 'note'}}`);
        hints.push({ depth: hints.length });
        hintStyles.push(HINT_TYPES.mkdocs[style] ?? 'note');
        continue;
      }
      if (name === 'endhint') {
        hints.pop();
        hintStyles.pop();
        if (generator === 'sphinx') out.push('````');
        out.push('');
        continue;
      }
      if (name === 'tab') {
        out.push(`${prefix()}**${attr('title') ?? ''}**`, prefix());
        continue;
      }
      if (name === 'embed' || name === 'page-ref' || name === 'content-ref') {
        const url = (attr('url') ?? attr('page') ?? '').replace(/\\#/g, '#');
        if (url) out.push(`${prefix()}[${url}](${url})`, prefix());
        continue;
      }
      continue; // tabs, code, swagger, … : the tags go, the content stays
    }
    // A figure in a frame <div> is an HTML block: its markdown image would stay text.
    line = line.replace(/^\s*<div\b[^>]*>\s*(<figure>.*<\/figure>)\s*<\/div>\s*$/, '$1');
    line = line.replace(
      /<figure>\s*<img\s+([^>]*?)\/?>\s*(?:<figcaption>\s*(?:<p>)?([\s\S]*?)(?:<\/p>)?\s*<\/figcaption>)?\s*<\/figure>/g,
      (_m, attrs: string, caption?: string) => {
        const src = /src="([^"]*)"/.exec(attrs)?.[1] ?? '';
        const alt = /alt="([^"]*)"/.exec(attrs)?.[1] ?? '';
        return `![${alt}](${toAssets(src)})${caption ? `\n${prefix()}\n${prefix()}*${caption}*` : ''}`;
      },
    );
    line = line.replace(/<img\s+([^>]*?)\/?>/g, (_m, attrs: string) => {
      const src = /src="([^"]*)"/.exec(attrs)?.[1] ?? '';
      const alt = /alt="([^"]*)"/.exec(attrs)?.[1] ?? '';
      return `![${alt}](${toAssets(src)})`;
    });
    line = line.replace(/\]\(((?:\.\.\/)*)\.gitbook\/assets\//g, ']($1assets/');
    // MyST looks a local image up by its path as written: a percent-encoded one (`image%20%2892%29.png`) is decoded
    // to the name the file has on Sphinx's side (see assetPath).
    if (generator === 'sphinx') {
      line = line.replace(/(!\[[^\]]*\]\()((?:\.\.\/)*assets\/[^)\s]*%[0-9A-Fa-f]{2}[^)\s]*)\)/g, (_m, start: string, src: string) => {
        return `${start}<${sphinxName(decodeURIComponentSafe(src))}>)`;
      });
    }
    // <details> is an HTML block: HonKit and MkDocs would show the markdown inside it as text.
    line = line.replace(/^\s*<\/?details>\s*$/, '').replace(/^\s*<summary>(.*)<\/summary>\s*$/, '**$1**');
    // Generators rewrite markdown links to pages, never the `href` of raw HTML: write the page's URL there.
    line = line.replace(/(<a\b[^>]*\bhref=")([^":#?]+\.md)((?:#[^"]*)?")/g, (_m, start: string, href: string, end: string) => {
      const target = posix.normalize(posix.join(posix.dirname(path), decodeURI(href)));
      return start + relativeUrl(outputOf(generator, path).urlPath, outputOf(generator, target).urlPath) + end;
    });
    if (generator === 'honkit') line = line.replace(/\{\{|\}\}|\{%|%\}/g, (m) => `{{ "${m}" }}`);
    out.push(prefix() + line);
  }
  return out.join('\n');
}

/**
 * A code block's text as the generator shows it, where the generator itself changes code (not the importer):
 * every renderer here treats a code block's trailing whitespace as no content (a `<pre>` ends with at most one
 * newline), Pygments (Sphinx) strips leading ones too, and Python-Markdown (MkDocs) and HonKit's markdown renderer
 * expand tabs to 4 columns and empty whitespace-only lines. Applied to both sides of the comparison.
 */
export function generatorCode(generator: Generator, code: string): string {
  const trimmed = code.replace(generator === 'sphinx' ? /^\n+|\s+$/g : /\s+$/, '');
  if (generator === 'sphinx') return trimmed;
  return trimmed
    .split('\n')
    .map((line) => {
      let out = '';
      // Python-Markdown expands a tab to the next multiple of 4 columns; HonKit's renderer (marked) puts 4 spaces for
      // each tab wherever it is.
      for (const ch of line) out += ch === '\t' ? ' '.repeat(generator === 'honkit' ? 4 : 4 - (out.length % 4)) : ch;
      return out.trim() === '' ? '' : out;
    })
    .join('\n');
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The relative URL from the page at URL path `from` to the page at `to`. */
function relativeUrl(from: string, to: string): string {
  const fromDir = from.endsWith('/') ? from : posix.dirname(from) + '/';
  const rel = posix.relative(fromDir, to) || '.';
  return to.endsWith('/') && rel !== '.' ? `${rel}/` : rel === '.' ? './' : rel;
}

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(full, base)));
    else files.push(relative(base, full).split('\\').join(posix.sep));
  }
  return files;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
