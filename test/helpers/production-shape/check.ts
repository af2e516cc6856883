/**
 * The final account of the production-shape run, read from the store (PostgreSQL) and the git server after every
 * process settled, for each operation the client saw (operations.ts): `done` (finished once, with the expected
 * content), `duplicated` (applied more than once: two revisions of one imported commit, two commits of one export, two
 * merges of one change request, two runs of one website import or a page twice) or `lost` (never finished, failed, or finished without its effect). A git import the client sent twice (the same
 * body, so the same request id) that the git request log holds as two requests is duplicated too, even when the
 * second found the commit already imported. Publishes are checked when they end
 * (publishOp reads the publication the site went live with: it must show the space's revision of the request).
 * Change requests are checked against the merge revision's page (its line once); website imports against the
 * pages of the revision the run stored (each title once).
 */
import path from 'node:path';
import { runGit, type GitServer } from '../git-server.js';
import { filesOf, type Apis, type Lane, type Operation, type Query } from './operations.js';
import { webPageTitles } from './content-ops.js';

export type FinalState = 'done' | 'lost' | 'duplicated';

export interface Verdict {
  op: Operation;
  state: FinalState;
  /** Why it is not done. */
  reason?: string;
}

/** The request's row in the git request log: its status, or how many rows one client request made (2: queued twice). */
async function requestStatus(db: Query, op: Operation, direction: 'import' | 'export'): Promise<{ rows: number; status: string }> {
  const rows = await db('SELECT status, code, message FROM git_sync_requests WHERE space_id = $1 AND direction = $2 AND event_at = $3', [
    op.spaceId,
    direction,
    new Date(op.timestamp!),
  ]);
  const r = rows[0];
  if (rows.length !== 1 || !r) return { rows: rows.length, status: `${rows.length} request rows` };
  return { rows: 1, status: r.status === 'succeeded' ? 'succeeded' : `${r.status} ${r.code ?? ''} ${r.message ?? ''}`.trim() };
}

async function checkImport(db: Query, op: Operation): Promise<Verdict> {
  const { rows: requests, status } = await requestStatus(db, op, 'import');
  const rows = await db("SELECT count(*)::int AS n FROM revisions WHERE space_id = $1 AND git->>'oid' = $2", [op.spaceId, op.commit]);
  const n = Number(rows[0]?.n ?? 0);
  if (n > 1) return { op, state: 'duplicated', reason: `${n} revisions of commit ${op.commit}` };
  if (requests > 1) return { op, state: 'duplicated', reason: `one request (sent twice by the client) queued as ${requests} git requests` };
  if (status !== 'succeeded') return { op, state: 'lost', reason: `request ${status}` };
  if (n === 0) return { op, state: 'lost', reason: `succeeded but no revision of commit ${op.commit}` };
  return { op, state: 'done' };
}

/** The files of `expected` that the branch lacks or holds with other bytes. */
async function exportedDifferences(repo: string, branch: string, expected: Map<string, string>): Promise<string[]> {
  const names = (await runGit(['ls-tree', '-r', '--name-only', `refs/heads/${branch}`], { cwd: repo })).split('\n').filter(Boolean);
  const wrong: string[] = [];
  for (const [file, text] of expected) {
    if (!names.includes(file)) wrong.push(`${file} missing`);
    else {
      const got = await runGit(['show', `refs/heads/${branch}:${file}`], { cwd: repo });
      // The first line that differs, so a missing or stale change request's line shows.
      const at = got.split('\n').findIndex((l, i) => l !== text.split('\n')[i]);
      if (got !== text)
        wrong.push(
          `${file} has other bytes (line ${at + 1}: ${JSON.stringify(got.split('\n')[at] ?? '')}, expected ${JSON.stringify(text.split('\n')[at] ?? '')})`,
        );
    }
  }
  return wrong;
}

async function checkExport(db: Query, git: GitServer, lane: Lane, op: Operation): Promise<Verdict> {
  const { status } = await requestStatus(db, op, 'export');
  const repo = path.join(git.root, `${lane.target}.git`);
  let subjects: string[] = [];
  try {
    subjects = (await runGit(['log', '--format=%s', `refs/heads/${op.branch}`], { cwd: repo })).split('\n').filter((s) => s === op.message);
  } catch {
    // no such branch: lost below
  }
  if (subjects.length > 1) return { op, state: 'duplicated', reason: `${subjects.length} commits "${op.message}" on ${op.branch}` };
  if (status !== 'succeeded') return { op, state: 'lost', reason: `request ${status}` };
  if (subjects.length === 0) return { op, state: 'lost', reason: `succeeded but no commit "${op.message}" on ${op.branch}` };
  const expected = filesOf(lane, op.version!);
  // A change request merged since the last import: the export carries its edit.
  if (op.edit) expected.set(op.edit.file, op.edit.text);
  const wrong = await exportedDifferences(repo, op.branch!, expected);
  if (wrong.length) return { op, state: 'lost', reason: `the export of version ${op.version} differs: ${wrong.join(', ')}` };
  return { op, state: 'done' };
}

/** An OpenAPI import: exactly one version of the spec with the document's `info.version`. */
async function checkOpenapi(db: Query, lane: Lane, op: Operation): Promise<Verdict> {
  const rows = await db(
    "SELECT count(*)::int AS n FROM openapi_spec_versions v JOIN openapi_specs s ON s.id = v.spec_id WHERE s.organization_id = $1 AND s.slug = $2 AND v.info->>'version' = $3",
    [lane.organizationId, lane.specSlug, `${op.version}.0.0`],
  );
  const n = Number(rows[0]?.n ?? 0);
  if (n > 1) return { op, state: 'duplicated', reason: `${n} versions of spec ${lane.specSlug} ${op.version}.0.0` };
  if (op.observed !== 'done') return { op, state: 'lost', reason: `${op.observed} ${op.error ?? ''}`.trim() };
  if (n === 0) return { op, state: 'lost', reason: `processed but no version ${op.version}.0.0 of spec ${lane.specSlug}` };
  return { op, state: 'done' };
}

const occurrences = (text: string, line: string) => text.split('\n').filter((l) => l.trim() === line).length;

/**
 * A change request: merged, by exactly one merge revision of the space, whose page 1 (read through the API) holds
 * the change request's line exactly once.
 */
async function checkChangeRequest(db: Query, apis: Apis, lane: Lane, op: Operation): Promise<Verdict> {
  if (!op.changeRequestId) return { op, state: 'lost', reason: `${op.observed} ${op.error ?? ''}`.trim() };
  const merges = await db("SELECT id FROM revisions WHERE space_id = $1 AND type = 'merge' AND data->>'changeRequestId' = $2", [
    op.spaceId,
    op.changeRequestId,
  ]);
  if (merges.length > 1) return { op, state: 'duplicated', reason: `${merges.length} merge revisions of change request ${op.changeRequestId}` };
  const cr = (await db('SELECT status, merged_revision_id FROM change_requests WHERE id = $1', [op.changeRequestId]))[0];
  if (cr?.status !== 'merged' || merges.length === 0)
    return { op, state: 'lost', reason: `change request ${cr?.status ?? 'missing'}, ${merges.length} merge revisions; ${op.error ?? ''}`.trim() };
  if (cr.merged_revision_id !== merges[0]!.id) return { op, state: 'lost', reason: `merged as ${cr.merged_revision_id}, not its merge revision` };
  const page = await apis.request(lane.token, 'GET', `/v1/spaces/${op.spaceId}/revisions/${cr.merged_revision_id}/path/page-1?format=markdown`);
  const n = page.status === 200 ? occurrences(String(page.body?.markdown ?? ''), op.marker!) : 0;
  if (n > 1) return { op, state: 'duplicated', reason: `the merged page 1 holds the change request's line ${n} times` };
  if (n === 0) return { op, state: 'lost', reason: `the merged page 1 lacks the change request's line (${page.status})` };
  return { op, state: 'done' };
}

/**
 * A website import: one run of its URL, completed, one revision stored by it (keyed by the run), made of the site's
 * pages, each title exactly once.
 */
async function checkWebsiteImport(db: Query, lane: Lane, op: Operation): Promise<Verdict> {
  const runs = await db("SELECT id, status, code, reason, revision_id, warnings FROM import_runs WHERE organization_id = $1 AND source->>'url' = $2", [
    lane.organizationId,
    op.url,
  ]);
  if (runs.length > 1) return { op, state: 'duplicated', reason: `${runs.length} import runs of ${op.url}` };
  const run = runs[0];
  if (run?.status !== 'completed') {
    // The run's warnings say why its pages did not make it (a fetch or a conversion that failed).
    const warnings = (typeof run?.warnings === 'string' ? JSON.parse(run.warnings) : (run?.warnings ?? [])) as Array<{ code?: string; message?: string }>;
    const why = warnings.map((w) => `${w.code}: ${w.message}`.slice(0, 200)).join('; ');
    return { op, state: 'lost', reason: `run ${run?.status ?? 'missing'} ${run?.code ?? ''} ${run?.reason ?? op.error ?? ''} ${why}`.trim() };
  }
  const revisions = await db('SELECT id FROM revisions WHERE space_id = $1 AND idempotency_key = $2', [lane.webSpaceId, `content-import/${run.id}`]);
  if (revisions.length !== 1 || revisions[0]!.id !== run.revision_id)
    return { op, state: revisions.length > 1 ? 'duplicated' : 'lost', reason: `${revisions.length} revisions stored by run ${run.id}` };
  const titles = (await db("SELECT title FROM revision_pages WHERE revision_id = $1 AND kind = 'document'", [run.revision_id])).map((r) => String(r.title));
  const expected = webPageTitles(lane.specSlug, op.version!);
  const counts = expected.map((t) => titles.filter((x) => x === t).length);
  if (counts.some((c) => c > 1)) return { op, state: 'duplicated', reason: `pages [${titles.join(', ')}], expected [${expected.join(', ')}] once each` };
  if (counts.some((c) => c === 0) || titles.length !== expected.length)
    return { op, state: 'lost', reason: `pages [${titles.join(', ')}], expected [${expected.join(', ')}]` };
  return { op, state: 'done' };
}

/** The verdict on every operation, from the store and the git server (and a change request's page, through the API). */
export async function checkOperations(db: Query, git: GitServer, apis: Apis, lanes: Lane[], ops: Operation[]): Promise<Verdict[]> {
  const laneOf = (op: Operation) => lanes.find((l) => l.phase === op.phase && l.index === op.lane)!;
  const out: Verdict[] = [];
  for (const op of ops) {
    if (op.kind === 'git-import') out.push(await checkImport(db, op));
    else if (op.kind === 'git-export') out.push(await checkExport(db, git, laneOf(op), op));
    else if (op.kind === 'openapi') out.push(await checkOpenapi(db, laneOf(op), op));
    else if (op.kind === 'change-request') out.push(await checkChangeRequest(db, apis, laneOf(op), op));
    else if (op.kind === 'website-import') out.push(await checkWebsiteImport(db, laneOf(op), op));
    else out.push(op.observed === 'done' ? { op, state: 'done' } : { op, state: 'lost', reason: `${op.observed} ${op.error ?? ''}`.trim() });
  }
  return out;
}

/**
 * Spaces whose primary revision is not the last change of the client (content that went missing or back): the
 * last imported commit, or the merge of a change request after it; a web space's, the last website import's.
 */
export async function checkSpaces(db: Query, lanes: Lane[], verdicts: Verdict[]): Promise<string[]> {
  // What took effect (the verdict, from the store), not what the client saw: a merge whose answer was lost still moved the space.
  const ops = verdicts.filter((v) => v.state === 'done').map((v) => v.op);
  const problems: string[] = [];
  const primary = async (spaceId: string) =>
    (await db("SELECT r.id, r.git->>'oid' AS oid FROM spaces s JOIN revisions r ON r.id = s.revision_id WHERE s.id = $1", [spaceId]))[0];
  for (const lane of lanes) {
    const mine = ops.filter((o) => o.phase === lane.phase && o.lane === lane.index);
    const last = mine.filter((o) => o.kind === 'git-import' || o.kind === 'change-request').at(-1);
    const head = last ? await primary(lane.spaceId) : undefined;
    if (last?.kind === 'git-import' && head?.oid !== last.commit)
      problems.push(`space ${lane.spaceId}: primary revision of commit ${head?.oid ?? 'none'}, not ${last.commit}`);
    const merge =
      last?.kind === 'change-request' ? (await db('SELECT merged_revision_id FROM change_requests WHERE id = $1', [last.changeRequestId]))[0] : undefined;
    if (last?.kind === 'change-request' && head?.id !== merge?.merged_revision_id)
      problems.push(
        `space ${lane.spaceId}: primary revision ${head?.id ?? 'none'}, not the merge ${merge?.merged_revision_id} of change request ${last.changeRequestId}`,
      );
    const web = mine.filter((o) => o.kind === 'website-import').at(-1);
    if (!web) continue;
    const run = (await db('SELECT revision_id FROM import_runs WHERE id = $1', [web.runId]))[0];
    const webHead = await primary(lane.webSpaceId);
    if (webHead?.id !== run?.revision_id) problems.push(`web space ${lane.webSpaceId}: primary revision ${webHead?.id ?? 'none'}, not run ${web.runId}'s`);
  }
  return problems;
}
