import { describe, expect, it } from 'vitest';
import { describeProgress } from '../../workflows/progress.js';
import { progressReporter } from '../../activities/progress.js';
import type { GitProgress, Progress } from '../../src/temporal/contract/index.js';

describe("describeProgress (the run's current details)", () => {
  it('writes git progress as before: phase, counts in words, loaded/total', () => {
    const git: GitProgress = { phase: 'storing', filesRead: 12, pagesParsed: 7 };
    expect(describeProgress(git)).toBe('**storing** · files read: 12 · pages parsed: 7');
    expect(describeProgress({ phase: 'receiving', loaded: 3, total: 10 })).toBe('**receiving** · 3/10');
    expect(describeProgress({ phase: 'writing', blobsWritten: 4 } as GitProgress)).toBe('**writing** · blobs written: 4');
    expect(describeProgress({ phase: 'fetching', loaded: undefined, total: undefined })).toBe('**fetching**');
  });

  it("shows any pipeline's item and named counts", () => {
    const p: Progress = { phase: 'crawling', item: 'https://example.com/docs/a', pagesFetched: 3, linksQueued: 40, loaded: 3, total: 43 };
    expect(describeProgress(p)).toBe('**crawling** · `https://example.com/docs/a` · pages fetched: 3 · links queued: 40 · 3/43');
  });
});

describe('progressReporter outside an activity', () => {
  it('keeps the current progress, merging updates, and never throws for cancellation', async () => {
    const progress = progressReporter<GitProgress>('fetching', { signal: 'gitProgress' });
    progress.update({ phase: 'parsing', filesRead: 2 });
    progress.update({ pagesParsed: 1 });
    expect(progress.current).toEqual({ phase: 'parsing', filesRead: 2, pagesParsed: 1 });
    expect(progress.signal).toBeUndefined();
    await progress.assertNotCancelled('import');
    await progress.flush();
  });
});
