import type { JsonObject, Paginated } from './common.js';
import type { Sql } from './sql.js';

/**
 * The content events Folio records (issue 28). `space_content_updated` and `space_gitsync_completed` have the
 * official payload shapes of the GitBook spec; the others are Folio's own, in the same style (`eventId`, `type`,
 * the object's ids).
 */
export type ContentEventType =
  | 'space_content_updated'
  | 'change_request_opened'
  | 'change_request_updated'
  | 'change_request_merged'
  | 'change_request_closed'
  | 'comment_created'
  | 'comment_updated'
  | 'site_published'
  | 'space_gitsync_completed'
  | 'import_run_finished'
  | 'translation_run_finished'
  | 'openapi_spec_processed';

/** What a store member records: the event's stream is its space, else `<kind>:<id>` of its object. */
export interface ContentEventInput {
  organizationId: string;
  type: ContentEventType;
  /** The ordering stream: the space id for space events, `site:<id>`, `openapi:<id>`, … otherwise. */
  stream: string;
  spaceId?: string | null;
  /** The site a site event is of: it goes to the installations whose site selection covers it. */
  siteId?: string | null;
  /** The event's own members (ids, counts; never content). `eventId` and `type` are added. */
  payload: JsonObject;
}

export interface ContentEventRecord {
  /** Global recording order (not commit order across streams). */
  position: number;
  id: string;
  organizationId: string;
  type: ContentEventType;
  stream: string;
  /** 1, 2, … within the stream, in commit order. */
  seq: number;
  spaceId: string | null;
  /** `{ eventId, type, …members }`. */
  payload: JsonObject;
  createdAt: Date;
}

/** Content events (`content_events`). Recording happens inside the store members that commit the facts. */
export interface EventStore {
  /** Events of an organization (optionally one stream), oldest first. */
  list(organizationId: string, options: { limit: number; page?: string; stream?: string }): Promise<Paginated<ContentEventRecord>>;
  get(eventId: string): Promise<ContentEventRecord | null>;
}

/** Records an event in the caller's transaction (store-internal: members call it with their `tx`). */
export type RecordEvent = (tx: Sql, input: ContentEventInput) => Promise<ContentEventRecord>;
