import { describe, expect, it } from 'vitest';
import { toFailure } from '../../activities/git-failures.js';
import {
  GitAddressDeniedError,
  GitAuthFailedError,
  GitCacheLockedError,
  GitCancelledError,
  GitFetchRefusedError,
  GitFileTooLargeError,
  GitInvalidPathError,
  GitNetworkError,
  GitNonFastForwardError,
  GitObjectNotFoundError,
  GitProtocolError,
  GitPushRejectedError,
  GitRefNotFoundError,
  GitRepoNotFoundError,
  type GitError,
} from '../../src/git/errors.js';
import { NON_RETRYABLE_GIT_ERRORS } from '../../src/temporal/contract/index.js';

const url = 'https://git.example.com/r.git';
const errors: GitError[] = [
  new GitAuthFailedError(url, 401),
  new GitRepoNotFoundError(url),
  new GitRefNotFoundError(url, 'refs/heads/main'),
  new GitPushRejectedError(url, 'refs/heads/main', 'hook'),
  new GitNonFastForwardError(url, 'refs/heads/main'),
  new GitNetworkError(url, 'reset'),
  new GitFileTooLargeError('a.bin', 2, 1),
  new GitCancelledError('import'),
  new GitObjectNotFoundError('blob', 'abc'),
  new GitInvalidPathError('../x', 'climbs'),
  new GitCacheLockedError('/tmp/x', 10),
  new GitProtocolError(url, 'bad pkt-line'),
  new GitAddressDeniedError(url, '127.0.0.1'),
  new GitFetchRefusedError(url, 'redirect loop'),
];

describe('retryability of git failures is decided once, by the error class', () => {
  it("the activity failure follows the error's own retryable flag", () => {
    for (const err of errors) {
      const failure = toFailure(err);
      expect(failure.type, err.code).toBe(err.code);
      expect(failure.nonRetryable, err.code).toBe(!err.retryable);
    }
  });

  it('transient trouble is retryable (network, locked cache, moved branch, protocol hiccup, object missing from the cache); the rest is not', () => {
    const retryable = errors
      .filter((e) => e.retryable)
      .map((e) => e.code)
      .sort();
    expect(retryable).toEqual(['CACHE_LOCKED', 'GIT_PROTOCOL', 'NETWORK', 'NON_FAST_FORWARD', 'OBJECT_NOT_FOUND']);
    // The workflow's retry policy never contradicts the class: no retryable code is listed as non-retryable.
    for (const code of retryable) expect(NON_RETRYABLE_GIT_ERRORS as readonly string[]).not.toContain(code);
  });
});
