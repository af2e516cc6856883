import type { OrganizationRecord } from '../../store/index.js';
import { iso, type UrlBuilder } from './urls.js';

/** The platform API's Organization object for a stored organization. */
export function organizationObject(org: OrganizationRecord, urls: UrlBuilder) {
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
    inviteLinks: false,
    mergeRules: { type: 'none' as const },
    trial: { status: 'notapplicable' as const, count: 0 },
    urls: { location: urls.api(`/orgs/${org.id}`), app: urls.app(`/o/${org.id}`) },
    permissions: {
      view: true,
      access: true,
      admin: true,
      ownTeam: true,
      createContent: true,
      createOpenAPISpec: true,
      ingestConversations: false,
      viewBilling: false,
      listMembers: false,
      listTeams: false,
      listIntegrations: false,
      listInstallations: false,
      installIntegration: false,
    },
  };
}
