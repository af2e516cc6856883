/**
 * The content operations of the production-shape run beside the git ones (operations.ts): change requests (one
 * created on the lane's git-synced space, one page's document edited through the API, merged; the next export of
 * the lane must carry the edit) and website imports (a run of the official `POST /v1/org/{org}/imports` into the
 * lane's web space, from a small loopback site served here: a start page linking two pages, each title unique to
 * the run). Each records what check.ts needs to account for it from the store.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pageOf, type Apis, type Lane, type Operation } from './operations.js';

/** The page every change request edits (present from version 1 of a lane's repository on). */
export const EDITED_FILE = 'page-1.md';

/** The markdown a change request writes into page 1 of the lane: the page as imported plus a line of its own. */
export function editedPage(lane: Lane, marker: string): string {
  return `${pageOf(lane, 1)}\n${marker}\n`;
}

function outcome(op: Operation, observed: Operation['observed'], error?: string): Operation {
  op.latencyMs = Date.now() - op.startedAt;
  op.observed = observed;
  if (error) op.error = error;
  return op;
}

/** Creates a change request, replaces page 1's document, merges it; `op.revisionId` is the merge's revision. */
export async function changeRequestOp(apis: Apis, lane: Lane, op: Operation): Promise<Operation> {
  op.startedAt = Date.now();
  op.marker = `Edited by change request ${op.seq} of space ${lane.phase}-${lane.index}.`;
  const spacePath = `/v1/spaces/${lane.spaceId}`;
  const page = (await apis.call(lane.token, 'GET', `${spacePath}/content/path/page-1`)).body as { id: string };
  const cr = await apis.call(lane.token, 'POST', `${spacePath}/change-requests`, { subject: op.marker });
  op.changeRequestId = cr.body.id as string;
  const crPath = `${spacePath}/change-requests/${op.changeRequestId}`;
  const markdown = editedPage(lane, op.marker);
  await apis.call(lane.token, 'POST', `${crPath}/content`, { changes: [{ operation: 'update_page', page: page.id, document: { markdown } }] });
  // From here the merge may happen even when its answer is lost: the next export is expected to carry the edit.
  lane.edit = { file: EDITED_FILE, text: markdown, marker: op.marker };
  // A merge the client sent again (its first answer lost to a restarting API) answers "already merged": the store tells.
  const merged = await apis.request(lane.token, 'POST', `${crPath}/merge`, {});
  op.operationId = merged.headers.get('x-folio-operation-id') ?? undefined;
  if (merged.status >= 400 && !/already merged/.test(JSON.stringify(merged.body)))
    return outcome(op, 'failed', `merge: ${merged.status} ${JSON.stringify(merged.body).slice(0, 300)}`);
  const after = (await apis.call(lane.token, 'GET', crPath)).body as { status: string; revisionMerged?: string };
  op.revisionId = after.revisionMerged;
  if (after.status !== 'merged') return outcome(op, 'failed', `change request ${after.status} after the merge`);
  return outcome(op, 'done');
}

/** The titles of the pages of run `n` of the lane's site (the start page and two pages it links). */
export function webPageTitles(slug: string, n: number): string[] {
  return [`Web ${slug} run ${n}`, `Alpha of ${slug} run ${n}`, `Beta of ${slug} run ${n}`];
}

const htmlPage = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

/** The loopback site: `/<slug>/r<n>/` (start page), `/<slug>/r<n>/alpha.html`, `/<slug>/r<n>/beta.html`; nothing else. */
export async function startSiteServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const m = /^\/([a-z0-9-]+)\/r(\d+)\/(alpha\.html|beta\.html)?$/.exec(new URL(req.url ?? '/', 'http://x').pathname);
    if (!m) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const [start, alpha, beta] = webPageTitles(m[1]!, Number(m[2]));
    const body =
      m[3] === undefined
        ? htmlPage(start!, `<p>The start page of run ${m[2]}.</p><ul><li><a href="alpha.html">Alpha</a></li><li><a href="beta.html">Beta</a></li></ul>`)
        : htmlPage(m[3] === 'alpha.html' ? alpha! : beta!, `<p>A page of run ${m[2]} of ${m[1]}.</p>`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A website import run of the next version of the lane's site into its web space, polled until it ends. */
export async function websiteImportOp(apis: Apis, siteServer: string, lane: Lane, op: Operation, timeoutMs: number): Promise<Operation> {
  op.version = ++lane.webRuns;
  op.url = `${siteServer}/${lane.specSlug}/r${op.version}/`;
  op.startedAt = Date.now();
  const base = `/v1/org/${lane.organizationId}/imports`;
  const res = await apis.call(lane.token, 'POST', base, { source: { type: 'website', url: op.url }, target: { space: lane.webSpaceId } });
  op.runId = res.body.id as string;
  op.operationId = res.headers.get('x-folio-operation-id') ?? undefined;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const run = (await apis.call(lane.token, 'GET', `${base}/${op.runId}`)).body as { status: string; reason?: string };
    if (run.status === 'completed') return outcome(op, 'done');
    if (run.status !== 'pending' && run.status !== 'in-progress') return outcome(op, 'failed', `${run.status} ${run.reason ?? ''}`.trim());
    await new Promise((r) => setTimeout(r, 250));
  }
  return outcome(op, 'pending');
}
