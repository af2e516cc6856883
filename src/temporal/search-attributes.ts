import { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { temporal as protoTypes } from '@temporalio/proto';

const { temporal } = proto;

/** Folio's custom search attributes (all Keyword), registered on the dev server at start and on any server by the worker. */
export const SEARCH_ATTRIBUTES = {
  SpaceId: 'Keyword',
  OrganizationId: 'Keyword',
  Operation: 'Keyword',
  OpenApiSpecId: 'Keyword',
} as const;

/** Registers the search attributes that are missing (idempotent). Needs operator rights on the namespace. */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const have = new Set(Object.keys(existing.customAttributes ?? {}));
  const missing = Object.keys(SEARCH_ATTRIBUTES).filter((n) => !have.has(n));
  if (missing.length === 0) return [];
  const searchAttributes: Record<string, protoTypes.api.enums.v1.IndexedValueType> = {};
  for (const name of missing) searchAttributes[name] = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
  return missing;
}
