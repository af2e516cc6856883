/** A document a client sent that Folio cannot turn into markdown (unknown block, missing member, bad reference). */
export class DocumentInvalidError extends Error {
  readonly code = 'DOCUMENT_INVALID';
  readonly retryable = false;
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(`${message} (at ${path})`);
    this.name = 'DocumentInvalidError';
  }
}
