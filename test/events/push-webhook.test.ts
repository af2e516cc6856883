/** The git hosts' push hooks read and checked (src/gitsync/push-webhook.ts): GitLab's token, both hosts' pushes, Folio's own exports. */
import { describe, expect, it } from 'vitest';
import { isOwnExport, parseGithubPush, parseGitlabPush, verifyGitlabToken } from '../../src/gitsync/push-webhook.js';

const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const A = 'a'.repeat(40);

describe('push hooks', () => {
  it('GitLab: the token must be the secret exactly', () => {
    expect(verifyGitlabToken('the-space-secret-1', 'the-space-secret-1')).toBe(true);
    for (const t of [undefined, '', 'the-space-secret-', 'the-space-secret-12', 'THE-SPACE-SECRET-1'])
      expect(verifyGitlabToken('the-space-secret-1', t)).toBe(false);
  });

  it('GitLab: a push hook gives the ref, the head commit’s time and message; a deleted branch; other kinds are not pushes', () => {
    const push = parseGitlabPush(
      bytes({
        object_kind: 'push',
        ref: 'refs/heads/main',
        after: A,
        commits: [
          { id: 'b'.repeat(40), timestamp: '2020-01-01T00:00:00Z' },
          { id: A, message: 'm', timestamp: '2026-02-03T04:05:06+01:00' },
        ],
      }),
    );
    expect(push).toEqual({ ref: 'refs/heads/main', after: A, deleted: false, timestamp: '2026-02-03T03:05:06.000Z', headMessage: 'm' });
    expect(parseGitlabPush(bytes({ object_kind: 'push', ref: 'refs/heads/main', after: '0'.repeat(40), checkout_sha: null, commits: [] }))?.deleted).toBe(true);
    expect(parseGitlabPush(bytes({ object_kind: 'tag_push', ref: 'refs/tags/v1', after: A }))).toBeNull();
    expect(parseGitlabPush(bytes({ object_kind: 'push', ref: 'refs/heads/main', after: 'not-a-commit' }))).toBeNull();
    expect(parseGitlabPush(new TextEncoder().encode('{'))).toBeNull();
  });

  it('GitHub: the head commit’s message is kept', () => {
    expect(parseGithubPush(bytes({ ref: 'refs/heads/main', after: A, head_commit: { id: A, message: 'x\n\nFolio-Space: s1\n' } }))?.headMessage).toBe(
      'x\n\nFolio-Space: s1\n',
    );
  });

  it('Folio’s own export: the last exported commit, or a head commit with the space’s trailer (not another space’s)', () => {
    const push = { ref: 'refs/heads/main', after: A, deleted: false };
    expect(isOwnExport(push, 's1', A)).toBe(true);
    expect(isOwnExport(push, 's1', 'c'.repeat(40))).toBe(false);
    expect(isOwnExport({ ...push, headMessage: 'Docs\n\nFolio-Space: s1\nFolio-Revision: r1\n' }, 's1', undefined)).toBe(true);
    expect(isOwnExport({ ...push, headMessage: 'Docs\n\nFolio-Space: s2\nFolio-Revision: r1\n' }, 's1', undefined)).toBe(false);
    // A trailer mentioned in the subject or body is not a trailer.
    expect(isOwnExport({ ...push, headMessage: 'Folio-Space: s1' }, 's1', undefined)).toBe(false);
  });
});
