import { afterAll, describe, expect, it } from 'vitest';
import { ParsePool } from '../../src/parse-threads/pool.js';
import { warmUpParsePool } from '../../src/parse-threads/warm-up.js';

describe('worker warm-up', () => {
  const pool = new ParsePool({ threads: 2 });
  afterAll(async () => {
    await pool.close();
  });

  it('starts every thread of the parse pool before the first import', async () => {
    expect(pool.readyThreads).toBe(0);
    await warmUpParsePool(pool);
    expect(pool.readyThreads).toBe(2);
    // The threads stay up for the first real task.
    expect(await pool.run('page.decode', '# Ready\n')).toMatchObject({ fields: { title: 'Ready' } });
    expect(pool.readyThreads).toBe(2);
  });
});
