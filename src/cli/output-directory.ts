/**
 * Safety checks for a command that replaces a whole output directory (`folio roundtrip --out`):
 * the output must not be, contain or lie inside the input, and an existing non-empty directory is
 * replaced only when it holds the marker of an earlier output of the same command (or with force).
 */
import { readdir, realpath, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, isAbsolute } from 'node:path';

/** Marker file written into an output directory; its presence allows replacing it later. */
export const OUTPUT_MARKER = '.folio-roundtrip-output';

/** Real path of `p`, following symlinks of its existing ancestors (the rest may not exist yet). */
async function canonical(p: string): Promise<string> {
  const abs = resolve(p);
  try {
    return await realpath(abs);
  } catch {
    const parent = dirname(abs);
    if (parent === abs) return abs;
    return join(await canonical(parent), basename(abs));
  }
}

function inside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export type OutputCheck = { ok: true } | { ok: false; reason: string };

export async function checkOutputDirectory(input: string, out: string, force: boolean): Promise<OutputCheck> {
  const [src, dst] = await Promise.all([canonical(input), canonical(out)]);
  if (inside(dst, src)) return { ok: false, reason: `--out ${out} is the input directory or inside it` };
  if (inside(src, dst)) return { ok: false, reason: `--out ${out} contains the input directory` };
  let entries: string[];
  try {
    const st = await stat(dst);
    if (!st.isDirectory()) return { ok: false, reason: `--out ${out} exists and is not a directory` };
    entries = await readdir(dst);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true };
    throw e;
  }
  if (entries.length === 0 || entries.includes(OUTPUT_MARKER) || force) return { ok: true };
  return { ok: false, reason: `--out ${out} is not empty and is not the output of an earlier folio roundtrip (use --force to replace it)` };
}

export async function writeOutputMarker(out: string): Promise<void> {
  await writeFile(join(out, OUTPUT_MARKER), 'Written by folio roundtrip: this directory is replaced by the next run.\n');
}
