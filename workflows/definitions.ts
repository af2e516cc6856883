/**
 * Definitions shared by workflows and their callers (API, CLI, tests): workflow ids, search attribute keys,
 * signals, queries and the small input/output types. Deterministic and free of Node built-ins.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const SpaceIdAttribute = defineSearchAttributeKey('SpaceId', SearchAttributeType.KEYWORD);
export const OrganizationIdAttribute = defineSearchAttributeKey('OrganizationId', SearchAttributeType.KEYWORD);
export const OperationAttribute = defineSearchAttributeKey('Operation', SearchAttributeType.KEYWORD);
export const OpenApiSpecIdAttribute = defineSearchAttributeKey('OpenApiSpecId', SearchAttributeType.KEYWORD);

/** Business-key workflow ids, so operators find runs by what they are about. */
export const workflowIds = {
  createSpace: (spaceId: string) => `space/${spaceId}/create`,
  gitQueue: (spaceId: string) => `space/${spaceId}/git`,
  gitImport: (spaceId: string, requestId: string) => `space/${spaceId}/git-import/${requestId}`,
  gitExport: (spaceId: string, requestId: string) => `space/${spaceId}/git-export/${requestId}`,
  purge: (spaceId: string) => `space/${spaceId}/purge`,
  openapiProcess: (specId: string, n: number | string) => `openapi/${specId}/process/${n}`,
};

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
