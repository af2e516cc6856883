import { describe, expect, it } from 'vitest';
import { cachedFidelity, loadRepo } from './corpus.js';

// Every corpus repository except pgsql-tw+gitbook-docs (see corpus-pgsql.test.ts).
const REPOS = [
  'GitbookIO+git-sync-normalization',
  'GitbookIO+public-docs',
  'BlockRazorinc+docs_en',
  'stacks-network+docs',
  'NSO-developer+nso-gitbook',
  'wandb+gitbook',
  'FlowiseAI+FlowiseDocs',
  'aimlapi+api-docs',
];

describe.each(REPOS)('corpus %s', (name) => {
  it('round-trips byte for byte; reserialized SUMMARY.md and GitBook-written pages match', async () => {
    const repo = await loadRepo(name);
    const f = await cachedFidelity(repo);
    console.log(JSON.stringify({ fidelity: f.figure }));
    // Plain round trip: every file byte-identical, nothing missing or added.
    expect(f.plain.changed).toEqual([]);
    expect(f.plain.missing).toEqual([]);
    expect(f.plain.extra).toEqual([]);
    expect(f.plain.identical).toBe(repo.tree.size);
    expect(f.reserialized.missing).toEqual([]);
    expect(f.reserialized.extra).toEqual([]);
    // SUMMARY.md written by GitBook comes back byte-identical from the model.
    if (f.figure.summaryWrittenByGitbook) expect(f.figure.summaryIdentical).toBe(true);
    // Page files written by GitBook: parse → serialize gives them back (markdown layer target).
    expect(f.figure.combined).toBeGreaterThanOrEqual(0.99);
  }, 300_000);
});
