/** Input and result of `space/<id>/create`. */
export interface CreateSpaceInput {
  spaceId: string;
  organizationId: string;
  title?: string;
  emoji?: string;
  language?: string;
  editMode?: 'live' | 'locked';
  visibility?: string;
  parent?: string;
}

export interface CreateSpaceResult {
  spaceId: string;
  revisionId: string;
}

/** Input and result of `space/<sourceSpaceId>/duplicate/<spaceId>`: a new space with the content of another. */
export interface DuplicateSpaceInput {
  organizationId: string;
  sourceSpaceId: string;
  /** The source's primary revision when the copy was asked for: what is copied. */
  sourceRevisionId: string;
  /** The new space: its id (chosen by the caller, the idempotency key) and what `space/<id>/create` makes it with. */
  space: CreateSpaceInput;
}

export interface DuplicateSpaceResult {
  spaceId: string;
  revisionId: string;
}
