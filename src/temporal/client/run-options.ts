import { searchAttributes, type RunSubject } from '../contract/index.js';

/**
 * The search attributes and memo of a run Folio starts, written once: `SpaceId` or `OpenApiSpecId`,
 * `OrganizationId` and `Operation`, and the same ids in the memo. Ids only: never content or credentials.
 */
export function runOptions(subject: RunSubject): { typedSearchAttributes: ReturnType<typeof searchAttributes>; memo: Record<string, string> } {
  return {
    typedSearchAttributes: searchAttributes(subject),
    memo: {
      ...(subject.spaceId !== undefined ? { spaceId: subject.spaceId } : {}),
      ...(subject.specId !== undefined ? { specId: subject.specId } : {}),
      ...(subject.subscriber !== undefined ? { subscriber: subject.subscriber } : {}),
      ...(subject.eventType !== undefined ? { eventType: subject.eventType } : {}),
      organizationId: subject.organizationId,
    },
  };
}
