import { createHash } from 'node:crypto';
import type { ParsedGitRequest } from './request.js';

/**
 * The request id: a digest of everything that defines the operation (never the credentials), so the same
 * request sent twice gets the same id and runs once. Requests without a `timestamp` get the API's receive
 * time as theirs, so two of them are two distinct events.
 */
export function gitRequestId(spaceId: string, request: ParsedGitRequest & { timestamp: string }): string {
  const canonical = JSON.stringify([
    spaceId,
    request.direction,
    request.url,
    request.ref,
    request.timestamp,
    request.force,
    request.standalone,
    request.commitMessage ?? null,
    request.projectDirectory,
    request.repoCacheID ?? null,
  ]);
  return `${request.direction === 'import' ? 'imp' : 'exp'}-${createHash('sha256').update(canonical).digest('base64url').slice(0, 22)}`;
}
