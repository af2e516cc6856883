/**
 * `X-Folio-Operation-Id`: the id of the Temporal workflow that runs what a request asked for (a git import or export,
 * a site's publish runs, an import run), which the client can follow (Temporal UI, `describe`) to its end. The
 * answer's status and body stay what the official spec says; the header is Folio's.
 */
export const OPERATION_ID_HEADER = 'x-folio-operation-id';
