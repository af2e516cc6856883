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
