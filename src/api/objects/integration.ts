import type { DeliveryLogRecord, DeliveryRecord, InstallationRecord, IntegrationRecord } from '../../store/index.js';
import { iso, type UrlBuilder } from './urls.js';

/** The platform API's Integration object (`owner`: the owning organization's object, built by the caller). */
export function integrationObject(integration: IntegrationRecord, owner: unknown, urls: UrlBuilder, admin: boolean) {
  const endpoint = urls.api(`/integrations/${integration.name}`);
  return {
    object: 'integration' as const,
    name: integration.name,
    version: integration.version,
    title: integration.title,
    description: integration.description,
    ...(integration.summary ? { summary: integration.summary } : {}),
    previewImages: [] as string[],
    target: integration.target,
    verified: false,
    visibility: integration.visibility,
    scopes: integration.scopes,
    categories: integration.categories,
    externalLinks: [] as Array<{ url: string; label: string }>,
    owner,
    urls: {
      location: endpoint,
      app: urls.app(`/integrations/${integration.name}`),
      assets: `${endpoint}/assets`,
      publicEndpoint: endpoint,
      publicContentEndpoint: endpoint,
    },
    permissions: { admin },
  };
}

/** The platform API's IntegrationInstallation object. */
export function installationObject(installation: InstallationRecord, urls: UrlBuilder) {
  const location = urls.api(`/integrations/${installation.integrationName}/installations/${installation.id}`);
  return {
    id: installation.id,
    status: installation.status,
    space_selection: installation.spaceSelection,
    site_selection: installation.siteSelection,
    spaces: installation.spaces.length,
    configuration: installation.configuration,
    createdAt: iso(installation.createdAt)!,
    updatedAt: iso(installation.updatedAt)!,
    urls: {
      location,
      app: urls.app(`/o/${installation.organizationId}/integrations/${installation.integrationName}`),
      publicEndpoint: location,
      publicContentEndpoint: location,
    },
    externalIds: [] as string[],
    target: { organization: installation.organizationId },
  };
}

/**
 * The platform API's IntegrationEvent: one finished delivery of a content event to an installation (its payload is
 * what the webhook received). Pending deliveries are not listed: the spec's status is `success` or `failed`.
 */
export function integrationEventObject(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    integrationId: delivery.integrationName,
    installationId: delivery.installationId,
    createdAt: iso(delivery.createdAt)!,
    payload: { ...delivery.event.payload, installationId: delivery.installationId },
    status: delivery.status === 'success' ? ('success' as const) : ('failed' as const),
  };
}

export function eventTraceObject(logs: DeliveryLogRecord[]) {
  return { logs: logs.map((l) => ({ message: l.message, timestamp: iso(l.at)!, level: l.level })) };
}
