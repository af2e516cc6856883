import { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { temporal as protoTypes } from '@temporalio/proto';
import { SEARCH_ATTRIBUTES } from '../contract/search-attributes.js';

const { temporal } = proto;

/** Registers Folio's search attributes (all Keyword) that are missing (idempotent). Needs operator rights on the namespace. */
export async function ensureSearchAttributes(address: string, namespace: string): Promise<string[]> {
  const connection = await Connection.connect({ address, connectTimeout: 10_000 });
  try {
    return await registerMissing(connection, namespace);
  } finally {
    await connection.close();
  }
}

async function registerMissing(connection: Connection, namespace: string): Promise<string[]> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const have = new Set(Object.keys(existing.customAttributes ?? {}));
  const missing = SEARCH_ATTRIBUTES.map((a) => a.name).filter((n) => !have.has(n));
  if (missing.length === 0) return [];
  const searchAttributes: Record<string, protoTypes.api.enums.v1.IndexedValueType> = {};
  for (const name of missing) searchAttributes[name] = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
  return missing;
}
