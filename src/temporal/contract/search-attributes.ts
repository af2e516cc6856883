/**
 * Folio's search attributes (registered by `ensureSearchAttributes`) and the one helper that tags a run with
 * them. The keys are plain `{ name, type }` values, structurally Temporal's `SearchAttributeKey`, so that
 * this module needs no Temporal package and workflows, the start module and the registration share them.
 */
export interface KeywordAttributeKey {
  readonly name: string;
  readonly type: 'KEYWORD';
}

export const SpaceIdAttribute: KeywordAttributeKey = { name: 'SpaceId', type: 'KEYWORD' };
export const OrganizationIdAttribute: KeywordAttributeKey = { name: 'OrganizationId', type: 'KEYWORD' };
export const OperationAttribute: KeywordAttributeKey = { name: 'Operation', type: 'KEYWORD' };
export const OpenApiSpecIdAttribute: KeywordAttributeKey = { name: 'OpenApiSpecId', type: 'KEYWORD' };
/** Webhook deliveries: the content event's type, and the subscriber (`<integration>/<installation id>`). */
export const EventTypeAttribute: KeywordAttributeKey = { name: 'EventType', type: 'KEYWORD' };
export const SubscriberAttribute: KeywordAttributeKey = { name: 'Subscriber', type: 'KEYWORD' };

/** Every attribute Folio sets; all keywords. */
export const SEARCH_ATTRIBUTES: readonly KeywordAttributeKey[] = [
  SpaceIdAttribute,
  OrganizationIdAttribute,
  OperationAttribute,
  OpenApiSpecIdAttribute,
  EventTypeAttribute,
  SubscriberAttribute,
];

export type Operation =
  | 'create-space'
  | 'git-queue'
  | 'git-import'
  | 'git-export'
  | 'purge-space'
  | 'openapi-process'
  | 'openapi-refresh'
  | 'translation-run'
  | 'apply-template'
  | 'search-index'
  | 'content-import'
  | 'site-publish'
  | 'pdf-export'
  | 'webhook-subscriber'
  | 'webhook-delivery'
  | 'change-request-update'
  | 'change-request-merge'
  | 'duplicate-space';

/** What a run is about: its organization, its operation and the space or the spec it works on. */
export interface RunSubject {
  organizationId: string;
  operation: Operation;
  spaceId?: string;
  specId?: string;
  /** Webhook runs: the subscriber (`<integration>/<installation id>`) and, for one delivery, the event's type. */
  subscriber?: string;
  eventType?: string;
}

/** The run's typed search attributes: `SpaceId` or `OpenApiSpecId`, `OrganizationId`, `Operation`. */
export function searchAttributes(subject: RunSubject): Array<{ key: KeywordAttributeKey; value: string }> {
  return [
    ...(subject.spaceId !== undefined ? [{ key: SpaceIdAttribute, value: subject.spaceId }] : []),
    ...(subject.specId !== undefined ? [{ key: OpenApiSpecIdAttribute, value: subject.specId }] : []),
    ...(subject.subscriber !== undefined ? [{ key: SubscriberAttribute, value: subject.subscriber }] : []),
    ...(subject.eventType !== undefined ? [{ key: EventTypeAttribute, value: subject.eventType }] : []),
    { key: OrganizationIdAttribute, value: subject.organizationId },
    { key: OperationAttribute, value: subject.operation },
  ];
}
