/**
 * Issue 26, driven by GitBook's own TypeScript client (`GitBookAPI` from @gitbook/api) pointed at Folio: an admin
 * creates a team and grants it edit on one space; a member of the team (a reader of the organization, with a personal
 * token) edits that space through a change request but not another space; the change request, merged by the admin and
 * exported to a git repository on loopback (asked for by an admin user, whose id — never her token — the workflow
 * carries), becomes a commit authored by the member and committed by Folio, with Folio's trailers; the member,
 * removed, finds their token refused on their very next request.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { sha256Hex } from '../../src/store/hash.js';
import { workflowIds } from '../../src/temporal/contract/index.js';

let folio: TestFolio;
let server: GitServer;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-people-client-'));
  folio = await sharedFolio({ loopback: true });
  server = await startGitServer({ auth: { username: 'writer', password: 'people-pw-123' } });
});
afterAll(async () => {
  await folio?.stop();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The status a client call failed with (the client throws GitBookAPIError). */
async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (err) {
    if (err instanceof GitBookAPIError) return err.code;
    throw err;
  }
}

async function exportAndWait(api: GitBookAPI, spaceId: string, url: string): Promise<void> {
  const since = Date.now();
  await api.spaces.exportToGitRepository(spaceId, { url, ref: 'refs/heads/main', commitMessage: 'Docs from Folio', timestamp: new Date().toISOString() });
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { data } = await api.spaces.getSpaceGitInfo(spaceId);
    const op = (data as { operation?: { state: string; direction: string; startedAt?: string; error?: unknown } }).operation;
    if (op?.direction === 'export' && op.state !== 'running' && op.startedAt && Date.parse(op.startedAt) >= since - 1000) {
      expect(op, JSON.stringify(op)).toMatchObject({ state: 'success' });
      return;
    }
    if (Date.now() > deadline) throw new Error(`no finished export: ${JSON.stringify(data).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('people through the official client', () => {
  it('a team granted edit on one space: its member edits that space, not another; the export is authored by them', async () => {
    const admin = new GitBookAPI({ authToken: folio.token, endpoint: folio.baseUrl });
    const org = folio.organizationId;
    const writer = await folio.store.users.create({ displayName: 'Wendy Writer', email: 'wendy@docs.test' });
    await folio.store.members.add(org, writer.id, { role: 'read' }, { via: 'cli' });
    const writerToken = (await folio.store.tokens.create(org, { userId: writer.id, label: 'wendy' })).token;
    const asWriter = new GitBookAPI({ authToken: writerToken, endpoint: folio.baseUrl });

    const { data: docs } = await admin.orgs.createSpace(org, { title: 'Docs' });
    const { data: notes } = await admin.orgs.createSpace(org, { title: 'Notes' });
    const { data: team } = await admin.orgs.createOrganizationTeam(org, { title: 'Writers', members: [writer.id] });
    expect(team).toMatchObject({ object: 'team', title: 'Writers', members: 1 });
    await admin.spaces.inviteToSpace(docs.id, { role: 'edit', teams: [team.id] });

    const { data: me } = await asWriter.user.getAuthenticatedUser();
    expect(me).toMatchObject({ id: writer.id, displayName: 'Wendy Writer' });
    const { data: seen } = await asWriter.spaces.getSpaceById(docs.id);
    expect(seen.permissions).toMatchObject({ view: true, edit: true, merge: false, admin: false });
    const { data: cr } = await asWriter.spaces.createChangeRequest(docs.id, { subject: 'Getting started' });
    await asWriter.spaces.updateChangeRequestContent(docs.id, cr.id, {
      changes: [{ operation: 'insert_page', document: { markdown: '# Getting started\n\nWritten by Wendy.\n' } }],
    } as never);
    // Not another space, and not a merge (editors do not merge).
    expect(await statusOf(asWriter.spaces.createChangeRequest(notes.id, { subject: 'Not mine' }))).toBe(403);
    expect(await statusOf(asWriter.spaces.mergeChangeRequest(docs.id, cr.id))).toBe(403);
    expect(await statusOf(asWriter.spaces.updateSpaceById(notes.id, { title: 'Taken' }))).toBe(403);

    await admin.spaces.mergeChangeRequest(docs.id, cr.id);
    await server.createBareRepo('docs', {});
    // The export is asked for by an admin user: its workflow carries her id, never her token.
    const ada = await folio.store.users.create({ displayName: 'Ada Admin', email: 'ada@docs.test' });
    await folio.store.members.add(org, ada.id, { role: 'admin' }, { via: 'cli' });
    const adaToken = await folio.store.tokens.create(org, { userId: ada.id, label: 'ada' });
    await exportAndWait(new GitBookAPI({ authToken: adaToken.token, endpoint: folio.baseUrl }), docs.id, server.authedUrl('docs'));
    const history = await folio.client.workflow.getHandle(workflowIds.gitQueue(docs.id)).fetchHistory();
    // Payloads decoded (bytes, or their base64 in the history's JSON form), so that a token inside one would show.
    const text = JSON.stringify(history, function (this: Record<string, unknown>, key, value) {
      const raw = this[key];
      if (raw instanceof Uint8Array) return Buffer.from(raw).toString('utf8');
      return key === 'data' && typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : value;
    });
    // (A decoded payload is a string inside this JSON: its quotes are escaped.)
    expect(text).toContain(`actorId\\":\\"${ada.id}`);
    for (const forbidden of [adaToken.token, sha256Hex(adaToken.token), adaToken.id]) expect(text).not.toContain(forbidden);
    const clone = path.join(work, 'clone');
    await runGit(['clone', '-q', '--branch', 'main', server.authedUrl('docs'), clone]);
    const [author, committer] = (await runGit(['log', '-1', '--format=%an <%ae>%n%cn <%ce>'], { cwd: clone })).trim().split('\n');
    expect(author).toBe('Wendy Writer <wendy@docs.test>');
    expect(committer).toBe('Folio <folio@localhost>');
    const trailers = await runGit(['log', '-1', '--format=%(trailers:only,unfold)'], { cwd: clone });
    expect(trailers).toContain(`Folio-Space: ${docs.id}`);
    expect(trailers).toMatch(/Folio-Revision: \S+/);
    expect(trailers).toMatch(/Folio-Request: \S+/);
    expect(trailers).toContain(`Folio-Change-Request: ${cr.id}`);

    // Removed from the organization: the very next request with their token is refused.
    await admin.orgs.removeMemberFromOrganizationById(org, writer.id);
    expect(await statusOf(asWriter.user.getAuthenticatedUser())).toBe(401);
    expect(await statusOf(asWriter.spaces.getSpaceById(docs.id))).toBe(401);
  });
});
