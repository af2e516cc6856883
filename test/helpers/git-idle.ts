import type { TestFolio } from './folio.js';

/** Polls `git/info` until the space's git queue is idle (nothing running or pending, the last operation finished); returns git/info. */
export async function waitGitIdle(folio: TestFolio, spaceId: string, timeoutMs = 90_000): Promise<any> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const info = await folio.request('GET', `/v1/spaces/${spaceId}/git/info`);
    const q = info.body?.queue;
    if (info.status === 200 && q && q.running === null && q.pending.length === 0 && info.body.operation && info.body.operation.state !== 'running')
      return info.body;
    if (Date.now() > end) throw new Error(`git queue not idle: ${JSON.stringify(info.body).slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
