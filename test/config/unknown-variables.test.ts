/** Unknown `FOLIO_*` variables (likely typos) are warned about, with the closest known name. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { unknownFolioVariables, warnUnknownVariables } from '../../src/config/unknown-variables.js';
import { createLogger } from '../../src/log.js';

describe('unknown FOLIO_* variables', () => {
  it('are found, each with the closest known name when it is a likely typo', () => {
    expect(
      unknownFolioVariables({
        FOLIO_TASK_QUEU: 'x',
        FOLIO_VAULTKEY: 'x',
        FOLIO_GIT_AUTHOR_MAIL: 'x',
        FOLIO_SOMETHING_ELSE_ENTIRELY: 'x',
        FOLIO_TASK_QUEUE: 'known',
        FOLIO_TEST_DATABASE_URL: 'a test variable',
        FOLIO_CORPUS: 'a test variable',
        HOME: '/root',
        PORTT: 'not a FOLIO_ variable',
      }),
    ).toEqual([
      { name: 'FOLIO_GIT_AUTHOR_MAIL', suggestion: 'FOLIO_GIT_AUTHOR_EMAIL' },
      { name: 'FOLIO_SOMETHING_ELSE_ENTIRELY', suggestion: undefined },
      { name: 'FOLIO_TASK_QUEU', suggestion: 'FOLIO_TASK_QUEUE' },
      { name: 'FOLIO_VAULTKEY', suggestion: 'FOLIO_VAULT_KEY' },
    ]);
  });

  it('are warned about once each, naming the variable and the suggestion', () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, cb) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        cb();
      },
    });
    const logger = createLogger('test', { level: 'info', pretty: false, destination });
    warnUnknownVariables(logger, { FOLIO_PURGE_AFTER: '1000', FOLIO_TASK_QUEUE: 'q' });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 40,
      variable: 'FOLIO_PURGE_AFTER',
      suggestion: 'FOLIO_PURGE_AFTER_MS',
      msg: 'unknown environment variable FOLIO_PURGE_AFTER is ignored (did you mean FOLIO_PURGE_AFTER_MS?)',
    });
  });
});
