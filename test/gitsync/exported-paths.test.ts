/** Which recorded export paths apply: to an export whose sync base is that export's commit, to an import after it. */
import { describe, expect, it } from 'vitest';
import { exportedPathsForImport, exportedPathsOfBase, writtenPaths } from '../../src/gitsync/exported-paths.js';
import type { GitSyncMark } from '../../src/store/index.js';
import { docPage, revisionOf } from '../format/phases/fixtures.js';

const URL_A = 'https://git.test/a.git';
const exportMark: GitSyncMark = { timestamp: '2025-01-02T00:00:00.000Z', commit: 'e1', revisionId: 'r1', url: URL_A, exportedPaths: { P: 'new.md' } };

describe('exported paths', () => {
  it('an export records the pages it wrote where their records do not say so, and only those', () => {
    const created = docPage('', '', 'NEW');
    delete created.git;
    const input = revisionOf([docPage('a.md', 'o1', 'SAME'), docPage('old.md', 'o2', 'MOVED'), created]);
    const output = revisionOf([docPage('a.md', 'o1', 'SAME'), docPage('moved.md', 'o2', 'MOVED'), docPage('new.md', 'o3', 'NEW')]);
    expect(writtenPaths(input, output)).toEqual({ MOVED: 'moved.md', NEW: 'new.md' });
  });

  it('apply to an export whose sync base is the commit they were recorded for', () => {
    expect(exportedPathsOfBase({ lastExport: exportMark }, URL_A, 'e1')).toEqual(new Map([['P', 'new.md']]));
    expect(exportedPathsOfBase({ lastExport: exportMark }, URL_A, 'other')).toBeUndefined();
    expect(exportedPathsOfBase({ lastExport: exportMark }, 'https://git.test/b.git', 'e1')).toBeUndefined();
    expect(exportedPathsOfBase({ lastExport: exportMark }, URL_A, undefined)).toBeUndefined();
  });

  it('apply to an import unless an import of another commit came after the export', () => {
    const imported = (timestamp: string, commit: string): GitSyncMark => ({ timestamp, commit, url: URL_A });
    expect(exportedPathsForImport({ lastImport: null, lastExport: exportMark }, URL_A)).toEqual(new Map([['P', 'new.md']]));
    expect(exportedPathsForImport({ lastImport: imported('2025-01-01T00:00:00.000Z', 'i0'), lastExport: exportMark }, URL_A)).toBeDefined();
    // The exported commit itself, imported as a no-op: the records still do not say where the pages are.
    expect(exportedPathsForImport({ lastImport: imported('2025-01-03T00:00:00.000Z', 'e1'), lastExport: exportMark }, URL_A)).toBeDefined();
    expect(exportedPathsForImport({ lastImport: imported('2025-01-03T00:00:00.000Z', 'i2'), lastExport: exportMark }, URL_A)).toBeUndefined();
    expect(exportedPathsForImport({ lastImport: null, lastExport: exportMark }, 'https://git.test/b.git')).toBeUndefined();
    expect(exportedPathsForImport({ lastImport: null, lastExport: { ...exportMark, exportedPaths: {} } }, URL_A)).toBeUndefined();
  });
});
