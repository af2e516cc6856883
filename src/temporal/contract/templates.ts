/** `space/<spaceId>/template/<key>`: applying a template to a space or one of its change requests. */
export interface ApplyTemplateInput {
  organizationId: string;
  spaceId: string;
  templateId: string;
  /** Placeholder name → a file of the space (`params.contentRefs`); ids only. */
  contentRefs?: Record<string, { kind: 'file'; file: string }>;
  changeRequestId?: string;
  /** The request's idempotency key (the `Idempotency-Key` header, or a hash of the request): the same key, one application. */
  requestKey: string;
}

export interface ApplyTemplateResult {
  revisionId: string;
  /** Top-level pages the template added (0 when the request had already been applied). */
  addedPages: number;
  alreadyApplied: boolean;
  /** The template's OpenAPI spec: created and processed (`code` set when processing failed), or already there. */
  openAPISpec?: { slug: string; specId: string; status: 'processed' | 'failed' | 'existing'; code?: string };
}
