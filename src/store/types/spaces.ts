import type { CountedPage, PageOptions } from './common.js';

export type EditMode = 'live' | 'locked';
export type SpaceVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';

export interface SpaceRecord {
  id: string;
  organizationId: string;
  title: string | null;
  emoji: string | null;
  language: string | null;
  editMode: EditMode | null;
  visibility: SpaceVisibility | null;
  /** Parent collection id. */
  parent: string | null;
  /** The primary (active) revision. */
  revisionId: string | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
  /** Identifies one deletion: a purge only proceeds if the space is still deleted by that deletion. */
  deletionId: string | null;
  /** The official `DefaultLevel`: `inherit`, a member role, or null (guests). */
  defaultLevel: SpaceDefaultLevel | null;
}

export type SpaceDefaultLevel = 'inherit' | 'admin' | 'create' | 'edit' | 'review' | 'comment' | 'read';

export interface SpaceCreateInput {
  /** URL-safe id (`[A-Za-z0-9_-]{1,64}`); generated when absent. */
  id?: string;
  title?: string;
  emoji?: string;
  language?: string;
  editMode?: EditMode;
  visibility?: SpaceVisibility | string;
  parent?: string;
}

export type SpacePatch = Partial<Pick<SpaceRecord, 'title' | 'emoji' | 'language' | 'editMode' | 'visibility' | 'parent' | 'defaultLevel'>>;

export interface SpaceStore {
  /** NotFoundError when the org is unknown; ConflictError when `id` is taken. */
  create(organizationId: string, input?: SpaceCreateInput): Promise<SpaceRecord>;
  /** null when unknown (or purged), or deleted unless `includeDeleted`. */
  get(id: string, options?: { includeDeleted?: boolean }): Promise<SpaceRecord | null>;
  /** Oldest first. Deleted spaces only with `includeDeleted`. */
  list(organizationId: string, options: PageOptions & { includeDeleted?: boolean }): Promise<CountedPage<SpaceRecord>>;
  /** NotFoundError when unknown or deleted. */
  update(id: string, patch: SpacePatch): Promise<SpaceRecord>;
  /** Idempotent: a space already deleted returns its current deletion. */
  markDeleted(id: string): Promise<{ deletionId: string; deletedAt: Date }>;
  /** Idempotent for a space that is not deleted. ConflictError when `deletionId` is given and differs. */
  restore(id: string, deletionId?: string): Promise<SpaceRecord>;
  /**
   * Removes the space with its revisions, pages, files, git sync state and the blobs no other revision uses,
   * only if it is still deleted by `deletionId` (ConflictError otherwise). `purged: false` when already gone.
   */
  purge(id: string, deletionId: string): Promise<{ purged: boolean; revisions: number; blobsDeleted: number }>;
  /**
   * Sets the primary revision. With `expected` (a revision id, or null for "none yet") it is a
   * compare-and-set: ConflictError when the current one differs. The revision must belong to the space.
   */
  setPrimaryRevision(id: string, revisionId: string, options?: { expected?: string | null }): Promise<SpaceRecord>;
}

/** How a space marked as a template of its organization is presented (its title and emoji are the space's). */
export interface SpaceTemplateRecord {
  spaceId: string;
  organizationId: string;
  subtitle: string | null;
  features: string[];
  createdAt: Date;
  updatedAt: Date;
}

export interface SpaceTemplateInput {
  subtitle?: string | null;
  features?: string[];
}

export interface SpaceTemplateStore {
  /** Marks (or updates) a space of the organization as a template. NotFoundError when the space is not the organization's. */
  mark(organizationId: string, spaceId: string, input?: SpaceTemplateInput): Promise<SpaceTemplateRecord>;
  /** false when the space was not a template. */
  unmark(organizationId: string, spaceId: string): Promise<boolean>;
  get(organizationId: string, spaceId: string): Promise<SpaceTemplateRecord | null>;
  /** The organization's template spaces (not deleted), oldest first. */
  list(organizationId: string): Promise<SpaceTemplateRecord[]>;
}
