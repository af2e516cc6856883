import type { CountedPage, PageOptions } from './common.js';
import type { SpaceDefaultLevel, SpaceRecord } from './spaces.js';

/** A collection: a nestable group of spaces and collections of one organization (the official Collection). */
export interface CollectionRecord {
  id: string;
  organizationId: string;
  /** 0..50 characters. */
  title: string;
  /** 0..100 characters; null when never set. */
  description: string | null;
  /** The parent collection, null at the organization's top level. */
  parent: string | null;
  /** What the content inherits: `inherit` (the parent's), a member role, or null (members get nothing by default). */
  defaultLevel: SpaceDefaultLevel | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface CollectionCreateInput {
  title?: string;
  description?: string;
  parent?: string | null;
  createdBy?: string | null;
}

export type CollectionPatch = Partial<Pick<CollectionRecord, 'title' | 'description' | 'defaultLevel'>>;

export interface CollectionStore {
  /**
   * NotFoundError when the organization is unknown or `parent` is not one of its collections; ValidationError for a
   * title over 50 or a description over 100 characters, or a parent already MAX_COLLECTION_DEPTH (src/store/collections.ts) deep.
   */
  create(organizationId: string, input: CollectionCreateInput): Promise<CollectionRecord>;
  /** null when unknown. */
  get(id: string): Promise<CollectionRecord | null>;
  /** Oldest first; `topLevel`: only those without a parent. */
  list(organizationId: string, options: PageOptions & { topLevel?: boolean }): Promise<CountedPage<CollectionRecord>>;
  /** Every collection of the organization (for visibility filters), oldest first. */
  all(organizationId: string): Promise<CollectionRecord[]>;
  /** NotFoundError when unknown; ValidationError for a title or description too long. */
  update(id: string, patch: CollectionPatch): Promise<CollectionRecord>;
  /**
   * Moves a collection under `parent` (null: the top level). NotFoundError when either is not the organization's;
   * ConflictError (code CONFLICT, `data.reason` `cycle`) when the parent is the collection itself or inside it;
   * ValidationError when the result would nest deeper than MAX_COLLECTION_DEPTH.
   */
  move(id: string, parent: string | null): Promise<CollectionRecord>;
  /** Moves a live space under `parent` (null: the top level). NotFoundError when either is not the organization's. */
  moveSpace(organizationId: string, spaceId: string, parent: string | null): Promise<SpaceRecord>;
  /**
   * Deletes an empty collection: false when there was none. ConflictError (`data.reason` `not-empty`, with the
   * counts of spaces and collections) when it holds live spaces or collections. Deleted spaces (not yet purged) that
   * were inside move to the top level, where a restore finds them. Grants on it go with it.
   */
  delete(id: string): Promise<boolean>;
  /** Live spaces directly inside, oldest first. */
  spaces(id: string, options: PageOptions): Promise<CountedPage<SpaceRecord>>;
}
