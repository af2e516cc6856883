/**
 * An object's size without reading it: from a loose object's header, or from its pack entry
 * (the entry header for whole objects, the delta header's result size for deltas). Lets
 * `readTree` report sizes and `readBlob` refuse oversized blobs before inflating them.
 * A size found is remembered by git directory (an object id names its content: its size never changes), so the next
 * operation on the same cache reads only the entries of new objects.
 */
import { open, readdir, readFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { constants, inflateSync } from 'node:zlib';
/** What the size readers need of a cache: its git directory (no import of the cache module, which uses this one). */
type RepoCache = { readonly gitdir: string };

interface PackIndex {
  pack: string;
  offsets: Map<string, number>;
}

interface State {
  indexes: Map<string, PackIndex>;
}

const states = new WeakMap<RepoCache, State>();

/** Sizes found, by git directory (each a space's cache): the most recently used caches only. */
const knownSizes = new Map<string, Map<string, number>>();
const KNOWN_SIZE_CACHES = 32;
/** Reads of pack entry headers in flight at once. */
const READ_LANES = 8;

function knownSizesOf(gitdir: string): Map<string, number> {
  let sizes = knownSizes.get(gitdir);
  if (sizes) knownSizes.delete(gitdir);
  else sizes = new Map();
  knownSizes.set(gitdir, sizes);
  if (knownSizes.size > KNOWN_SIZE_CACHES) knownSizes.delete(knownSizes.keys().next().value!);
  return sizes;
}

/** Forgets the sizes found in a git directory (the cache was removed). */
export function forgetObjectSizes(gitdir: string): void {
  knownSizes.delete(gitdir);
}

function parseIdx(buf: Buffer, pack: string): PackIndex | null {
  if (buf.readUInt32BE(0) !== 0xff744f63 || buf.readUInt32BE(4) !== 2) return null;
  const n = buf.readUInt32BE(8 + 255 * 4);
  const oidsAt = 8 + 256 * 4;
  const crcAt = oidsAt + n * 20;
  const offAt = crcAt + n * 4;
  const bigAt = offAt + n * 4;
  const offsets = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const oid = buf.toString('hex', oidsAt + i * 20, oidsAt + i * 20 + 20);
    let off = buf.readUInt32BE(offAt + i * 4);
    if (off & 0x80000000) off = Number(buf.readBigUInt64BE(bigAt + (off & 0x7fffffff) * 8));
    offsets.set(oid, off);
  }
  return { pack, offsets };
}

async function loadIndexes(cache: RepoCache, state: State): Promise<void> {
  const dir = path.join(cache.gitdir, 'objects', 'pack');
  let names: string[] = [];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.endsWith('.idx') || state.indexes.has(name)) continue;
    try {
      const idx = parseIdx(await readFile(path.join(dir, name)), path.join(dir, name.replace(/\.idx$/, '.pack')));
      if (idx) state.indexes.set(name, idx);
    } catch {
      /* unreadable index: sizes from it are simply unknown */
    }
  }
}

function inflatePrefix(data: Buffer): Buffer | null {
  try {
    return inflateSync(data, { finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return null;
  }
}

function varint(buf: Buffer, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  let i = at;
  for (;;) {
    const b = buf[i++]!;
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(b & 0x80)) return [value, i];
  }
}

async function readAt(file: string, offset: number, length: number, handles?: Map<string, FileHandle>): Promise<Buffer> {
  let fh = handles?.get(file);
  const own = !fh;
  if (!fh) {
    fh = await open(file, 'r');
    handles?.set(file, fh);
  }
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, offset);
    return buf.subarray(0, bytesRead);
  } finally {
    if (own && !handles) await fh.close();
  }
}

async function packedSize(idx: PackIndex, offset: number, handles?: Map<string, FileHandle>): Promise<number | undefined> {
  const head = await readAt(idx.pack, offset, 512, handles);
  let b = head[0]!;
  const type = (b >> 4) & 7;
  let size = b & 0x0f;
  let shift = 4;
  let i = 1;
  while (b & 0x80) {
    b = head[i++]!;
    size += (b & 0x7f) * 2 ** shift;
    shift += 7;
  }
  if (type >= 1 && type <= 4) return size;
  if (type === 6) {
    // Negative offset to the base: a big-endian base-128 number.
    do b = head[i++]!;
    while (b & 0x80);
  } else if (type === 7) {
    i += 20;
  } else {
    return undefined;
  }
  const delta = inflatePrefix(head.subarray(i));
  if (!delta || delta.length < 2) return undefined;
  const [, next] = varint(delta, 0); // base size
  const [result] = varint(delta, next);
  return result;
}

function stateOf(cache: RepoCache): State {
  let state = states.get(cache);
  if (!state) {
    state = { indexes: new Map() };
    states.set(cache, state);
  }
  return state;
}

async function looseSize(cache: RepoCache, oid: string): Promise<number | undefined> {
  const loose = path.join(cache.gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
  try {
    const head = inflatePrefix(await readAt(loose, 0, 256));
    if (head) {
      const m = /^[a-z]+ (\d+)\0/.exec(head.subarray(0, 32).toString('latin1'));
      if (m) return Number(m[1]);
    }
  } catch {
    /* not loose */
  }
  return undefined;
}

function findPacked(state: State, oid: string): [PackIndex, number] | undefined {
  for (const idx of state.indexes.values()) {
    const off = idx.offsets.get(oid);
    if (off !== undefined) return [idx, off];
  }
  return undefined;
}

/** The object's size in bytes, or undefined when it cannot be had without reading the object. */
export async function objectSize(cache: RepoCache, oid: string): Promise<number | undefined> {
  return (await objectSizes(cache, [oid])).get(oid);
}

/**
 * Sizes of many objects at once: the ones found before from memory, the others from their pack entries (each pack file
 * opened once, a few entries read at a time, in pack order) or loose object headers. Unknown sizes are left out.
 */
export async function objectSizes(cache: RepoCache, oids: Iterable<string>): Promise<Map<string, number>> {
  const state = stateOf(cache);
  const known = knownSizesOf(cache.gitdir);
  const out = new Map<string, number>();
  const packed: Array<{ oid: string; idx: PackIndex; offset: number }> = [];
  const queued = new Set<string>();
  let reloaded = false;
  for (const oid of oids) {
    if (out.has(oid) || queued.has(oid)) continue;
    const remembered = known.get(oid);
    if (remembered !== undefined) {
      out.set(oid, remembered);
      continue;
    }
    let hit = findPacked(state, oid);
    let size: number | undefined;
    if (!hit) size = await looseSize(cache, oid);
    if (size === undefined && !hit && !reloaded) {
      await loadIndexes(cache, state);
      reloaded = true;
      hit = findPacked(state, oid);
    }
    if (hit) {
      packed.push({ oid, idx: hit[0], offset: hit[1] });
      queued.add(oid);
    } else if (size !== undefined) {
      out.set(oid, size);
      known.set(oid, size);
    }
  }
  if (packed.length === 0) return out;
  packed.sort((a, b) => (a.idx.pack === b.idx.pack ? a.offset - b.offset : a.idx.pack < b.idx.pack ? -1 : 1));
  const handles = new Map<string, FileHandle>();
  try {
    for (const pack of new Set(packed.map((p) => p.idx.pack))) {
      try {
        handles.set(pack, await open(pack, 'r'));
      } catch {
        /* unreadable pack: sizes from it are simply unknown */
      }
    }
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < packed.length) {
        const { oid, idx, offset } = packed[next++]!;
        if (!handles.has(idx.pack)) continue;
        let size: number | undefined;
        try {
          size = await packedSize(idx, offset, handles);
        } catch {
          size = undefined;
        }
        if (size !== undefined) {
          out.set(oid, size);
          known.set(oid, size);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_LANES, packed.length) }, lane));
  } finally {
    await Promise.all([...handles.values()].map((h) => h.close().catch(() => {})));
  }
  return out;
}
