import type { OrganizationRecord } from '../../store/index.js';
import type { organizationPermissions } from './permissions.js';
import { iso, type UrlBuilder } from './urls.js';

/** The platform API's Organization object for a stored organization. */
export function organizationObject(org: OrganizationRecord, urls: UrlBuilder, permissions: ReturnType<typeof organizationPermissions>) {
  return {
    object: 'organization' as const,
    id: org.id,
    title: org.title,
    createdAt: iso(org.createdAt)!,
    emailDomains: [] as string[],
    type: 'business' as const,
    useCase: 'internalDocs' as const,
    plan: 'free_2024' as const,
    defaultRole: null,
    sso: false,
    ai: false,
    inviteLinks: true,
    mergeRules: { type: 'none' as const },
    trial: { status: 'notapplicable' as const, count: 0 },
    urls: { location: urls.api(`/orgs/${org.id}`), app: urls.app(`/o/${org.id}`) },
    permissions,
  };
}
