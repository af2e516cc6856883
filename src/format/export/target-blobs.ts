import type { ExportOptions, SourceTree } from '../model.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Blobs of the target tree by content (the first path holding each oid), built on first use. */
export class TargetBlobs {
  private oidPaths: Map<string, string> | null = null;

  constructor(
    private readonly target: SourceTree,
    private readonly readBlob: ExportOptions['readBlob'],
  ) {}

  /** A path of the target holding the blob `oid`. */
  findByOid(oid: string): string | undefined {
    if (!this.oidPaths) {
      this.oidPaths = new Map();
      for (const [p, e] of this.target) if (!this.oidPaths.has(e.oid)) this.oidPaths.set(e.oid, p);
    }
    return this.oidPaths.get(oid);
  }

  /** Text of the blob a page was imported from, when it can be read (undefined otherwise). */
  async sourceText(git: { oid: string; path: string }): Promise<string | undefined> {
    let bytes: Uint8Array | undefined;
    const at = this.target.get(git.path);
    const from = at?.oid === git.oid ? git.path : this.findByOid(git.oid);
    if (from !== undefined) bytes = await this.target.get(from)!.read();
    else if (this.readBlob) bytes = await this.readBlob(git.oid).catch(() => undefined);
    if (!bytes) return undefined;
    try {
      return utf8.decode(bytes);
    } catch {
      return undefined;
    }
  }
}
