/**
 * The file system client isomorphic-git writes the cache through: Node's fs/promises, except
 * that every file write goes to a temporary file that is renamed into place, so a concurrent
 * reader never sees a half-written object, pack index, ref or shallow file.
 */
import { randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';

async function writeFileAtomic(file: string, data: string | Uint8Array, options?: Parameters<typeof fsp.writeFile>[2]): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
  try {
    await fsp.writeFile(tmp, data, options);
    await fsp.rename(tmp, file);
  } catch (err) {
    await fsp.rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
}

/**
 * isomorphic-git probes its client with `readFile()` (no path) on every call, twice, to tell a promise API from a
 * callback one: answered with a promise rejected with one shared error, without going to the disk or building an error.
 */
const NO_PATH: NodeJS.ErrnoException = Object.assign(new TypeError('readFile: no path given'), { code: 'ERR_INVALID_ARG_TYPE' });

export function isProbe(file: unknown): boolean {
  return file === undefined;
}

export function probeAnswer(): Promise<never> {
  return Promise.reject(NO_PATH);
}

const readFile = ((file: Parameters<typeof fsp.readFile>[0], options?: Parameters<typeof fsp.readFile>[1]) =>
  isProbe(file) ? probeAnswer() : fsp.readFile(file, options)) as typeof fsp.readFile;

/** An isomorphic-git `fs` client (promise API) with atomic writes. */
export const atomicFs = {
  promises: {
    readFile,
    writeFile: writeFileAtomic,
    unlink: fsp.unlink,
    readdir: fsp.readdir,
    mkdir: fsp.mkdir,
    rmdir: fsp.rmdir,
    stat: fsp.stat,
    lstat: fsp.lstat,
    readlink: fsp.readlink,
    symlink: fsp.symlink,
    chmod: fsp.chmod,
  },
};
