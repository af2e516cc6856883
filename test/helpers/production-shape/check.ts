/**
 * The final account of the production-shape run, read from the store (PostgreSQL) and the git server after every
 * process settled, for each operation the client saw (operations.ts): `done` (finished once, with the expected
 * content), `duplicated` (applied more than once: two revisions of one imported commit, two commits of one export)
 * or `lost` (never finished, failed, or finished without its effect). A git import the client sent twice (the same
 * body, so the same request id) that the git request log holds as two requests is duplicated too, even when the
 * second found the commit already imported. Publishes are checked when they end
 * (publishOp reads the publication the site went live with: it must show the space's revision of the request).
 */
import path from 'node:path';
import { runGit, type GitServer } from '../git-server.js';
import { filesOf, type Lane, type Operation, type Query } from './operations.js';

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
    else if ((await runGit(['show', `refs/heads/${branch}:${file}`], { cwd: repo })) !== text) wrong.push(`${file} has other bytes`);
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
  const wrong = await exportedDifferences(repo, op.branch!, filesOf(lane, op.version!));
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

/** The verdict on every operation, from the store and the git server. */
export async function checkOperations(db: Query, git: GitServer, lanes: Lane[], ops: Operation[]): Promise<Verdict[]> {
  const laneOf = (op: Operation) => lanes.find((l) => l.phase === op.phase && l.index === op.lane)!;
  const out: Verdict[] = [];
  for (const op of ops) {
    if (op.kind === 'git-import') out.push(await checkImport(db, op));
    else if (op.kind === 'git-export') out.push(await checkExport(db, git, laneOf(op), op));
    else if (op.kind === 'openapi') out.push(await checkOpenapi(db, laneOf(op), op));
    else out.push(op.observed === 'done' ? { op, state: 'done' } : { op, state: 'lost', reason: `${op.observed} ${op.error ?? ''}`.trim() });
  }
  return out;
}

/** Spaces whose primary revision is not the last imported commit (content that went missing or back). */
export async function checkSpaces(db: Query, lanes: Lane[], ops: Operation[]): Promise<string[]> {
  const problems: string[] = [];
  for (const lane of lanes) {
    const imports = ops.filter((o) => o.phase === lane.phase && o.lane === lane.index && o.kind === 'git-import' && o.observed === 'done');
    const last = imports.at(-1);
    if (!last) continue;
    const rows = await db("SELECT r.git->>'oid' AS oid FROM spaces s JOIN revisions r ON r.id = s.revision_id WHERE s.id = $1", [lane.spaceId]);
    if (rows[0]?.oid !== last.commit) problems.push(`space ${lane.spaceId}: primary revision of commit ${rows[0]?.oid ?? 'none'}, not ${last.commit}`);
  }
  return problems;
}
