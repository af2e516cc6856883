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

/** An isomorphic-git `fs` client (promise API) with atomic writes. */
export const atomicFs = {
  promises: {
    readFile: fsp.readFile,
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
