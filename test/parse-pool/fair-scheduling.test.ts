/**
 * Issue 25, item 1: one organization's parse work must not hold the pool for everyone. The pool serves tenant keys
 * fairly (the key running the fewest tasks first, round robin among equals), caps what one key may queue, starts a
 * spare thread for a key that waits while others hold every thread, bounds a whole operation with a budget over all
 * its tasks, and lowers the CPU priority (nice) of a thread whose task parses for long.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { FairQueue } from '../../src/parse-pool/fair-queue.js';
import { OperationBudget } from '../../src/parse-pool/operation-budget.js';
import { ParsePool } from '../../src/parse-threads/pool.js';
import { threadCpuClock } from '../../src/parse-pool/thread-cpu.js';

const pools: ParsePool[] = [];
const pool = (options: ConstructorParameters<typeof ParsePool>[0]) => {
  const p = new ParsePool(options);
  pools.push(p);
  return p;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

const PAGE = '# Hello\n\nA page.\n';
/** A page that takes seconds to parse (tens of seconds on a loaded machine): ended by a budget or a signal in these tests. */
const SLOW = `# Slow\n\n${'**_'.repeat(40_000)}\n`;

const err0 = (errs: any[]): Error => errs[0] as Error;

async function failure(p: Promise<unknown>): Promise<any> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => err,
  );
}

describe('OperationBudget', () => {
  it('counts the CPU time its threads report, not the wall time they are held', async () => {
    let cpu = 0;
    const budget = new OperationBudget({ cpuMs: 100 });
    const end = budget.begin(() => cpu);
    // Held 300 ms without CPU (a thread waiting for its turn on a loaded machine): nothing used.
    await new Promise((r) => setTimeout(r, 300));
    expect(budget.usedMs()).toBe(0);
    expect(budget.exhausted).toBe(false);
    cpu = 60;
    expect(budget.usedMs()).toBe(60);
    end();
    const second = budget.begin(() => cpu);
    cpu = 110;
    // Checked while it runs (every few milliseconds): exhausted with the CPU time of both tasks.
    await new Promise((r) => setTimeout(r, 100));
    expect(budget.exhausted).toBe(true);
    expect(budget.signal.reason).toMatchObject({ budget: 'operation', kind: 'cpu', limit: 100 });
    second();
    expect(budget.usedMs()).toBe(110);
  });

  it.runIf(process.platform === 'linux')("reads a thread's CPU time from /proc", () => {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    const clock = threadCpuClock(tid)!;
    expect(clock).toBeDefined();
    const before = clock()!;
    const until = performance.now() + 200;
    let x = 0;
    while (performance.now() < until) x += Math.sqrt(x + 1);
    expect(x).toBeGreaterThan(0);
    // At least part of the 200 ms of work was spent on the CPU (a loaded machine gives less), and no more than it.
    const used = clock()! - before;
    expect(used).toBeGreaterThan(5);
    expect(used).toBeLessThan(1000);
  });
});

describe('FairQueue', () => {
  it('takes from the key running the fewest tasks, round robin among equals, and respects eligibility', () => {
    const q = new FairQueue<{ key: string; n: number }>();
    for (let n = 1; n <= 3; n++) q.push({ key: 'a', n });
    q.push({ key: 'b', n: 1 });
    q.push({ key: 'c', n: 1 });
    const running = new Map<string, number>();
    const order: string[] = [];
    for (;;) {
      const t = q.take((k) => running.get(k) ?? 0);
      if (!t) break;
      order.push(`${t.key}${t.n}`);
    }
    // Nothing runs: a, b and c in turn, then what is left of a.
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'a3']);
    for (let n = 1; n <= 3; n++) q.push({ key: 'a', n });
    q.push({ key: 'b', n: 2 });
    running.set('a', 2);
    // `b` runs nothing: it goes first although `a` queued earlier; `a` is not eligible (at its cap).
    expect(q.take((k) => running.get(k) ?? 0)?.key).toBe('b');
    expect(
      q.take(
        (k) => running.get(k) ?? 0,
        (k) => k !== 'a',
      ),
    ).toBeUndefined();
    expect(q.length).toBe(3);
    expect(q.countOf('a')).toBe(3);
  });
});

describe('parse pool across organizations', () => {
  it("serves keys fairly: another organization's page runs next, not after everything one organization queued", async () => {
    const p = pool({ threads: 1, spareThreads: 0, timeBudgetMs: 60_000 });
    await p.startAll();
    const done: string[] = [];
    const run = (key: string, name: string) => p.runWith({ key }, 'page.decode', `# ${name}\n\n${'text '.repeat(2000)}\n`).then(() => done.push(name));
    const all = [run('hostile', 'h1'), run('hostile', 'h2'), run('hostile', 'h3'), run('hostile', 'h4'), run('normal', 'n1')];
    await Promise.all(all);
    // h1 had the thread when n1 came; n1 is next (FIFO would run it last).
    expect(done).toEqual(['h1', 'n1', 'h2', 'h3', 'h4']);
  });

  it('caps what one organization may queue (PARSE_POOL_BUSY for it), others still queue', async () => {
    const p = pool({ threads: 1, spareThreads: 0, timeBudgetMs: 60_000, maxQueuePerKey: 2 });
    await p.startAll();
    const stop = new AbortController();
    const held = [1, 2, 3].map(() => p.runWith({ key: 'a', signal: stop.signal }, 'page.decode', SLOW).catch((err: unknown) => err));
    // One runs, two wait: the third waiting one is refused.
    const refused = await failure(p.runWith({ key: 'a' }, 'page.decode', PAGE));
    expect(refused).toMatchObject({ code: 'PARSE_POOL_BUSY', retryable: true, data: { maxQueue: 2, perOrganization: true } });
    const other = p.runWith({ key: 'b' }, 'page.decode', PAGE);
    stop.abort(new Error('test over'));
    await Promise.all(held);
    expect((await other).fields.title).toBe('Hello');
  });

  it('a spare thread serves an organization that waits while another holds every thread', async () => {
    const p = pool({ threads: 1, spareThreads: 1, timeBudgetMs: 120_000 });
    await p.startAll();
    const stop = new AbortController();
    let slowEnded = false;
    const slow = p
      .runWith({ key: 'hostile', signal: stop.signal }, 'page.decode', SLOW)
      .catch((err: unknown) => err)
      .finally(() => (slowEnded = true));
    // A second task of the same organization waits (it may not take the spare thread)...
    let secondStarted = false;
    const second = p
      .runWith({ key: 'hostile', signal: stop.signal }, 'page.decode', PAGE)
      .then(() => (secondStarted = true))
      .catch((err: unknown) => err);
    // ...while the other organization's page is parsed at once on a spare thread.
    const other = await p.runWith({ key: 'normal' }, 'page.decode', PAGE);
    expect(other.fields.title).toBe('Hello');
    expect(slowEnded).toBe(false);
    expect(secondStarted).toBe(false);
    stop.abort(new Error('test over'));
    await Promise.all([slow, second]);
  });

  it("a demoted thread leaves its place: another organization's page is parsed on a thread started meanwhile", async () => {
    const p = pool({ threads: 1, spareThreads: 0, demoteNice: 7, demoteAfterMs: 100, timeBudgetMs: 120_000 });
    await p.startAll();
    const stop = new AbortController();
    let slowEnded = false;
    const slow = p
      .runWith({ key: 'hostile', signal: stop.signal }, 'page.decode', SLOW)
      .catch((err: unknown) => err)
      .finally(() => (slowEnded = true));
    // The hostile page holds the only thread; once demoted, the pool starts one more for the other organization.
    expect((await p.runWith({ key: 'normal' }, 'page.decode', PAGE)).fields.title).toBe('Hello');
    expect(slowEnded).toBe(false);
    expect(p.readyThreads).toBe(2);
    stop.abort(new Error('test over'));
    await slow;
  });

  it("an operation's budget bounds all its tasks together: running ones end, later ones are refused, other work goes on", async () => {
    const p = pool({ threads: 2, spareThreads: 0, timeBudgetMs: 120_000 });
    await p.startAll();
    const budget = new OperationBudget({ cpuMs: 1500, operation: 'git import' });
    const errs = await Promise.all([1, 2, 3, 4].map(() => failure(p.runWith({ key: 'a', budget }, 'page.decode', SLOW))));
    for (const err of errs) expect(err).toMatchObject({ code: 'PARSE_BUDGET_EXCEEDED', budget: 'operation', limit: 1500, kind: 'cpu' });
    expect(err0(errs).message).toBe('git import went over its parse budget of 1500 ms of CPU time');
    expect(budget.exhausted).toBe(true);
    // The threads' CPU time was counted (two tasks at once), far below one page's own time budget.
    expect(budget.usedMs()).toBeGreaterThanOrEqual(1500);
    expect(budget.usedMs()).toBeLessThan(10_000);
    // Refused at once, before any thread takes it.
    expect(await failure(p.runWith({ key: 'a', budget }, 'page.decode', PAGE))).toMatchObject({ budget: 'operation' });
    // The pool itself goes on (the ended threads were replaced).
    expect((await p.runWith({ key: 'a' }, 'page.decode', PAGE)).fields.title).toBe('Hello');
  });

  it("an operation's deadline ends it whatever CPU time it used", async () => {
    const p = pool({ threads: 1, spareThreads: 0, timeBudgetMs: 120_000 });
    await p.startAll();
    const budget = new OperationBudget({ cpuMs: 3_600_000, deadlineMs: 1000, operation: 'git import' });
    const err = await failure(p.runWith({ key: 'a', budget }, 'page.decode', SLOW));
    expect(err).toMatchObject({ code: 'PARSE_BUDGET_EXCEEDED', budget: 'operation', limit: 1000, kind: 'deadline' });
    expect(err.message).toBe('git import went over its parse deadline of 1000 ms');
  });

  it.runIf(process.platform === 'linux')('a thread whose task used over demoteAfterMs of CPU time runs at demoteNice until the task ends', async () => {
    const p = pool({ threads: 1, demoteNice: 7, demoteAfterMs: 200, timeBudgetMs: 120_000 });
    await p.startAll();
    const niceOf = (tid: string) => {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      } catch {
        return NaN; // the thread ended meanwhile
      }
    };
    const atSeven = () => readdirSync('/proc/self/task').filter((tid) => niceOf(tid) === 7);
    const waitFor = async (cond: () => boolean) => {
      for (let i = 0; i < 600 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
      return cond();
    };
    // An ordinary page: nothing demoted.
    expect((await p.run('page.decode', PAGE)).fields.title).toBe('Hello');
    expect(atSeven()).toEqual([]);
    // A page that parses for a second or so: demoted while it runs, back to the process's priority once it answered.
    const medium = p.run('page.decode', `# Medium\n\n${'['.repeat(100_000)}\n`);
    expect(await waitFor(() => atSeven().length === 1)).toBe(true);
    expect((await medium).fields.title).toBe('Medium');
    expect(atSeven()).toEqual([]);
    // A hostile one, ended by its caller: demoted while it runs, its replacement runs at the process's priority.
    const stop = new AbortController();
    const slow = p.runWith({ signal: stop.signal }, 'page.decode', SLOW).catch((err: unknown) => err);
    expect(await waitFor(() => atSeven().length === 1)).toBe(true);
    stop.abort(new Error('test over'));
    await slow;
    expect((await p.run('page.decode', PAGE)).fields.title).toBe('Hello');
    expect(atSeven()).toEqual([]);
    expect(niceOf(String(process.pid))).toBe(0);
  });
});
