import { resolveSpaceConfig } from '../gitbook-yaml.js';
import { inlinePageCodec, type PageCodecRunner } from '../page-codec-runner.js';
import type { DocumentPage, SourceTree } from '../model.js';
import { dirname, isExternalUrl, isMarkdownPath, resolvePath, safeDecode, splitFragment } from '../paths.js';
import { documents } from '../summary/from-revision.js';
import { inferToc } from '../summary/infer.js';
import { targetFileOf, type ExportContext } from './context.js';

/** Page file paths listed by the target tree's table of contents (to tell managed from unmanaged files). */
export async function listedPagePaths(target: SourceTree, projectDirectory: string, codec: PageCodecRunner = inlinePageCodec): Promise<Set<string>> {
  const out = new Set<string>();
  try {
    const { config } = await resolveSpaceConfig(target, projectDirectory, (text, path) => codec.parseConfig(text, path));
    const found = target.get(config.summary);
    const entry = found?.mode === '120000' ? undefined : found;
    const toc = entry
      ? (await codec.parseSummary(new TextDecoder().decode(await entry.read()), config.summary)).toc
      : inferToc(target, config.root, config.readme, config.summary);
    const dir = dirname(config.summary);
    const walk = (es: (typeof toc.sections)[number]['entries']) => {
      for (const e of es) {
        if (e.kind === 'link' && !isExternalUrl(e.dest)) {
          const { path, fragment } = splitFragment(e.dest);
          if (fragment === undefined) {
            for (const c of [path, safeDecode(path)]) {
              const r = c === null ? null : resolvePath(dir, c);
              if (r !== null && target.has(r) && isMarkdownPath(r)) out.add(r);
            }
          }
        }
        walk(e.children);
      }
    };
    for (const s of toc.sections) walk(s.entries);
  } catch {
    // An unreadable target config means nothing there is known to be managed.
  }
  return out;
}

/**
 * Phase "managed paths of the target" (what may be deleted): the pages and files of `options.base`, or without it
 * the pages the target's own table of contents lists; the pages of the revision; and the files an earlier export
 * wrote (`options.exportedPaths`). A page is managed in the file that holds it (a moved page's git path is not its
 * file any more once an export moved it).
 */
export async function collectManagedPaths(ctx: Pick<ExportContext, 'target' | 'options' | 'revision' | 'basePages' | 'baseFiles'>): Promise<void> {
  const { options, basePages, baseFiles } = ctx;
  const add = (p: DocumentPage) => {
    const file = targetFileOf(options, p);
    if (file !== undefined) basePages.add(file);
  };
  if (options.base) {
    for (const p of documents(options.base.pages)) add(p);
    for (const f of options.base.files) if (f.git) baseFiles.add(f.git.path);
  } else {
    for (const p of await listedPagePaths(ctx.target, ctx.revision.config.projectDirectory, options.codec)) basePages.add(p);
  }
  for (const p of documents(ctx.revision.pages)) add(p);
  for (const file of options.exportedPaths?.values() ?? []) basePages.add(file);
}
