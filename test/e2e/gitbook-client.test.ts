/**
 * The whole loop driven by GitBook's own TypeScript client (`GitBookAPI` from @gitbook/api) pointed at Folio:
 * create a space, import a repository (git http-backend on loopback, basic auth), list pages, edit one page in a
 * change request, merge, export — and the exported commit holds that edit and nothing else.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { corpusDir } from '../../src/project-root.js';

const CORPUS = path.join(corpusDir(), 'GitbookIO+git-sync-normalization');
const REF = 'refs/heads/main';

let folio: TestFolio;
let server: GitServer;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-client-'));
  folio = await sharedFolio({ loopback: true });
  server = await startGitServer({ auth: { username: 'writer', password: 'client-pw-123' } });
  const src = path.join(work, 'src');
  await cp(CORPUS, src, { recursive: true });
  await server.createBareRepo('docs', { fromDir: src, branch: 'main', message: 'corpus' });
});

afterAll(async () => {
  await folio?.stop();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

async function waitForOperation(api: GitBookAPI, spaceId: string, direction: 'import' | 'export', since: number) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { data } = await api.spaces.getSpaceGitInfo(spaceId);
    const op = (data as { operation?: { state: string; direction: string; startedAt?: string; error?: unknown } }).operation;
    if (op && op.direction === direction && op.state !== 'running' && op.startedAt && Date.parse(op.startedAt) >= since - 1000) return op;
    if (Date.now() > deadline) throw new Error(`no finished ${direction}: ${JSON.stringify(data).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('GitBookAPI client against Folio', () => {
  it('imports, edits one page in a change request, merges and exports exactly that edit', async () => {
    const api = new GitBookAPI({ authToken: folio.token, endpoint: folio.baseUrl });
    const { data: space } = await api.orgs.createSpace(folio.organizationId, { title: 'Client loop' });

    let t = Date.now();
    await api.spaces.importGitRepository(space.id, { url: server.authedUrl('docs'), ref: REF, timestamp: new Date(Date.UTC(2025, 0, 1)).toISOString() });
    const imported = await waitForOperation(api, space.id, 'import', t);
    expect(imported).toMatchObject({ state: 'success' });

    const { data: listed } = await api.spaces.listPages(space.id);
    const flat: Array<{ id: string; type: string; path?: string; pages?: unknown[] }> = [];
    const walk = (pages: any[]) => pages.forEach((p) => (flat.push(p), walk(p.pages ?? [])));
    walk(listed.pages as any[]);
    expect(flat.length).toBeGreaterThan(5);
    // A page with a plain paragraph to edit.
    let target: { id: string; markdown: string; line: string } | undefined;
    for (const p of flat) {
      if (p.type !== 'document') continue;
      const { data: page } = await api.spaces.getPageById(space.id, p.id, { format: 'markdown' });
      const markdown = (page as { markdown?: string }).markdown ?? '';
      const line = markdown.split('\n').find((l) => /^[A-Z][a-z].{20,}\.$/.test(l) && !l.includes('{%'));
      if (line) {
        target = { id: p.id, markdown, line };
        break;
      }
    }
    expect(target).toBeDefined();
    const edited = target!.markdown.replace(target!.line, `${target!.line} Edited through the client.`);

    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'Client edit' });
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [{ operation: 'update_page', page: target!.id, document: { markdown: edited } }],
    } as never);
    await api.spaces.mergeChangeRequest(space.id, cr.id);
    const { data: after } = await api.spaces.getPageById(space.id, target!.id, { format: 'markdown' });
    expect((after as { markdown?: string }).markdown).toBe(edited);

    t = Date.now();
    await api.spaces.exportToGitRepository(space.id, {
      url: server.authedUrl('docs'),
      ref: REF,
      commitMessage: 'Client edit',
      timestamp: new Date(Date.UTC(2025, 0, 2)).toISOString(),
    });
    const exported = await waitForOperation(api, space.id, 'export', t);
    expect(exported).toMatchObject({ state: 'success' });

    // The exported commit, seen with the git CLI: one file changed, one line replaced, nothing else.
    const clone = path.join(work, 'clone');
    await runGit(['clone', '-q', '--branch', 'main', server.authedUrl('docs'), clone]);
    const changed = (await runGit(['diff', '--name-only', 'HEAD~1', 'HEAD'], { cwd: clone })).trim().split('\n');
    expect(changed).toHaveLength(1);
    const file = await readFile(path.join(clone, changed[0]!), 'utf8');
    expect(file).toContain(`${target!.line} Edited through the client.`);
    const numstat = (await runGit(['diff', '--numstat', 'HEAD~1', 'HEAD'], { cwd: clone })).trim();
    expect(numstat.split(/\s+/).slice(0, 2)).toEqual(['1', '1']);
    const message = (await runGit(['log', '-1', '--format=%B'], { cwd: clone })).trim();
    expect(message.startsWith('Client edit')).toBe(true);
  });

  it('exports pages written only through the API (no import) into a new empty repository', async () => {
    const api = new GitBookAPI({ authToken: folio.token, endpoint: folio.baseUrl });
    const { data: space } = await api.orgs.createSpace(folio.organizationId, { title: 'API only' });
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'First pages' });
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [
        { operation: 'insert_page', document: { markdown: '# Welcome\n\nThe first page.\n' } },
        { operation: 'insert_page', document: { markdown: '# Setup\n\nHow to install it.\n' } },
      ],
    } as never);
    await api.spaces.mergeChangeRequest(space.id, cr.id);
    await server.createBareRepo('empty', {});
    const t = Date.now();
    await api.spaces.exportToGitRepository(space.id, {
      url: server.authedUrl('empty'),
      ref: REF,
      commitMessage: 'First export',
      timestamp: new Date().toISOString(),
    });
    const op = await waitForOperation(api, space.id, 'export', t);
    expect(op).toMatchObject({ state: 'success' });
    const clone = path.join(work, 'clone-empty');
    await runGit(['clone', '-q', '--branch', 'main', server.authedUrl('empty'), clone]);
    const files = (await runGit(['ls-files'], { cwd: clone })).trim().split('\n');
    expect(files).toContain('SUMMARY.md');
    const contents = await Promise.all(files.filter((f) => f.endsWith('.md') && f !== 'SUMMARY.md').map((f) => readFile(path.join(clone, f), 'utf8')));
    expect(contents.some((c) => c.includes('# Welcome') && c.includes('The first page.'))).toBe(true);
    expect(contents.some((c) => c.includes('# Setup') && c.includes('How to install it.'))).toBe(true);
    const summary = await readFile(path.join(clone, 'SUMMARY.md'), 'utf8');
    expect(summary).toMatch(/\[Welcome\]/);
    expect(summary).toMatch(/\[Setup\]/);
    await runGit(['fsck', '--strict'], { cwd: clone });
  });
});
