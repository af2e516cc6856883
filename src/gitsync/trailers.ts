/** Commit trailers that mark a commit as Folio's own export. */
export const FOLIO_REVISION_TRAILER = 'Folio-Revision';
export const FOLIO_SPACE_TRAILER = 'Folio-Space';
export const FOLIO_REQUEST_TRAILER = 'Folio-Request';

export function folioTrailers(spaceId: string, revisionId: string, requestId: string): Record<string, string> {
  return { [FOLIO_SPACE_TRAILER]: spaceId, [FOLIO_REVISION_TRAILER]: revisionId, [FOLIO_REQUEST_TRAILER]: requestId };
}
