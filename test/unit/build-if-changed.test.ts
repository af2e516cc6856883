/**
 * `npm start` builds only when the sources changed (scripts/build-if-changed.mjs): on a copy of a small project tree,
 * a second start reuses dist/, and an edited, added or removed source, a missing output or a failed build builds again.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module without types (it runs before anything is compiled)
import { buildIfChanged, OUTPUTS } from '../../scripts/build-if-changed.mjs';

const root = mkdtempSync(path.join(os.tmpdir(), 'folio-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

let builds = 0;
/** A build that writes the outputs, like `npm run build`. */
function build(): boolean {
  builds++;
  for (const o of OUTPUTS as string[]) write(o, `built ${builds}`);
  return true;
}

describe('build-if-changed', () => {
  it('builds once, reuses dist/ while nothing changed, and builds again after any change of the sources', () => {
    write('package.json', '{}');
    write('package-lock.json', '{}');
    write('tsconfig.json', '{}');
    write('src/a.ts', 'export const a = 1;\n');
    write('workflows/index.ts', 'export {};\n');

    expect(buildIfChanged(root, build)).toEqual({ built: true, reason: 'no compiled output' });
    expect(buildIfChanged(root, build)).toEqual({ built: false, reason: 'sources unchanged since the last build' });
    expect(builds).toBe(1);

    write('src/a.ts', 'export const a = 2;\n');
    expect(buildIfChanged(root, build)).toMatchObject({ built: true, reason: 'sources changed' });
    write('activities/new.ts', 'export {};\n');
    expect(buildIfChanged(root, build)).toMatchObject({ built: true });
    rmSync(path.join(root, 'activities/new.ts'));
    expect(buildIfChanged(root, build)).toMatchObject({ built: true });
    write('package-lock.json', '{"lockfileVersion":3}');
    expect(buildIfChanged(root, build)).toMatchObject({ built: true });
    expect(builds).toBe(5);
    expect(buildIfChanged(root, build)).toMatchObject({ built: false });

    rmSync(path.join(root, 'dist/workflow-bundle.js'));
    expect(buildIfChanged(root, build)).toEqual({ built: true, reason: 'no compiled output' });
    expect(builds).toBe(6);
  });

  it('records no build that failed: the next start builds again', () => {
    write('src/a.ts', 'export const a = 3;\n');
    expect(() => buildIfChanged(root, () => false)).toThrow(/the build failed \(sources changed\)/);
    expect(buildIfChanged(root, build)).toMatchObject({ built: true, reason: 'sources changed' });
  });
});
