/**
 * Failure classification of the git activities: transient store errors and a row missing in the middle of an
 * operation are retried by Temporal; a genuine not-found of the space stays final (the activity's own check).
 */
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/errors.js';
import { toFailure, typedFailures } from '../../activities/git-failures.js';
import { GitSyncError } from '../../src/gitsync/errors.js';
import { StoreTransientError, StoreUnavailableError } from '../../src/store/errors.js';
import { isServerAbsent, translateStoreError } from '../../src/store/transient-errors.js';
import { NON_RETRYABLE_GIT_ERRORS } from '../../src/temporal/contract/index.js';

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('transient store errors', () => {
  it.each([
    ['40001', 'could not serialize access due to concurrent update'],
    ['40P01', 'deadlock detected'],
    ['55P03', 'could not obtain lock on row'],
    ['53300', 'sorry, too many clients already'],
  ])('SQLSTATE %s is a retryable StoreTransientError', (code, message) => {
    const err = translateStoreError(pgError(code, message));
    expect(err).toBeInstanceOf(StoreTransientError);
    expect(err).toMatchObject({ code: 'STORE_TRANSIENT', retryable: true, data: { sqlState: code } });
  });

  it('a lost connection is a retryable StoreUnavailableError; a failed statement stays what it is', () => {
    expect(translateStoreError(pgError('ECONNRESET', 'read ECONNRESET'))).toBeInstanceOf(StoreUnavailableError);
    expect(translateStoreError(pgError('57P01', 'terminating connection due to administrator command'))).toBeInstanceOf(StoreUnavailableError);
    const unique = pgError('23505', 'duplicate key value violates unique constraint');
    expect(translateStoreError(unique)).toBe(unique);
  });

  it('a database server that is not there (socket missing, refused, starting up) is unreachable, and waited for on connect', () => {
    const missingSocket = Object.assign(pgError('ENOENT', 'connect ENOENT /data/run/.s.PGSQL.5432'), { syscall: 'connect' });
    const refused = Object.assign(pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), { syscall: 'connect' });
    const starting = pgError('57P03', 'the database system is starting up');
    for (const err of [missingSocket, refused, starting]) {
      expect(translateStoreError(err)).toBeInstanceOf(StoreUnavailableError);
      expect(isServerAbsent(err)).toBe(true);
    }
    // A reset or terminated connection may have run the statement: not retried on connect (the operation is).
    expect(isServerAbsent(pgError('ECONNRESET', 'read ECONNRESET'))).toBe(false);
    expect(isServerAbsent(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(translateStoreError(new Error('Connection terminated due to connection timeout'))).toBeInstanceOf(StoreUnavailableError);
    // ENOENT of anything but a connection is no connection error.
    const file = Object.assign(pgError('ENOENT', 'no such file'), { syscall: 'open' });
    expect(translateStoreError(file)).toBe(file);
  });

  it('the activities let Temporal retry them, under a type the workflows do not list as non-retryable', () => {
    for (const err of [
      new StoreTransientError('deadlock detected', '40P01'),
      new StoreUnavailableError('database unreachable'),
      new NotFoundError('revision', 'r1'),
    ]) {
      const failure = toFailure(err);
      expect(failure.nonRetryable).toBe(false);
      expect(NON_RETRYABLE_GIT_ERRORS as readonly string[]).not.toContain(failure.type);
    }
    expect(toFailure(new NotFoundError('revision', 'r1')).type).toBe('STALE_READ');
    expect(toFailure(new StoreTransientError('deadlock detected', '40P01')).type).toBe('STORE_TRANSIENT');
  });
});

describe('the operation’s own failures (src/gitsync/errors.ts)', () => {
  it('keep their code, message and details, final unless they say retryable; a missing space stays NOT_FOUND', () => {
    const conflict = toFailure(new GitSyncError('CONFLICT', 'the remote branch changed 1 file(s): a.md', { details: [{ files: ['a.md'] }] }));
    expect(conflict).toMatchObject({
      type: 'CONFLICT',
      message: 'the remote branch changed 1 file(s): a.md',
      nonRetryable: true,
      details: [{ files: ['a.md'] }],
    });
    const missing = toFailure(new GitSyncError('NOT_FOUND', 'space not found: s1'));
    expect(missing).toMatchObject({ type: 'NOT_FOUND', message: 'space not found: s1', nonRetryable: true });
    expect(toFailure(new GitSyncError('X', 'x', { retryable: true })).nonRetryable).toBe(false);
  });

  it('typedFailures maps them and lets any other error through as it is', async () => {
    await expect(typedFailures(Promise.reject(new GitSyncError('LOCKED', 'space s1 is locked')))).rejects.toMatchObject({ type: 'LOCKED', nonRetryable: true });
    const other = new NotFoundError('space', 's1');
    await expect(typedFailures(Promise.reject(other))).rejects.toBe(other);
    await expect(typedFailures(Promise.resolve(1))).resolves.toBe(1);
  });
});
