import type { ContentEventRecord } from './events.js';
import type { CountedPage, JsonObject } from './common.js';

export type IntegrationTarget = 'all' | 'site' | 'space' | 'organization';
export type IntegrationVisibility = 'public' | 'private' | 'unlisted';
export type InstallationStatus = 'active' | 'pending' | 'paused';
export type DeliveryStatus = 'pending' | 'success' | 'failed';

export interface IntegrationRecord {
  name: string;
  organizationId: string;
  version: number;
  title: string;
  description: string;
  summary: string | null;
  target: IntegrationTarget;
  visibility: IntegrationVisibility;
  scopes: string[];
  categories: string[];
  /** Whether a webhook address and secret are set (both sealed; the store never holds them in clear). */
  hasWebhook: boolean;
  /** Development mode: set while a tunnel receives the events (`all`: of every installation, else of the owner's). */
  devMode: { all: boolean } | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface IntegrationInput {
  organizationId: string;
  title: string;
  description: string;
  summary?: string | null;
  target: IntegrationTarget;
  visibility: IntegrationVisibility;
  scopes: string[];
  categories: string[];
  /** Sealed by the caller (src/vault/); undefined keeps what is stored, null clears it. */
  webhook?: { url: Uint8Array; secret: Uint8Array } | null;
}

export interface InstallationRecord {
  id: string;
  integrationName: string;
  organizationId: string;
  status: InstallationStatus;
  spaceSelection: 'all' | 'selected';
  /** The selected spaces (empty with `all`). */
  spaces: string[];
  siteSelection: 'all' | 'selected';
  /** The selected sites (empty with `all`). */
  sites: string[];
  configuration: JsonObject;
  createdAt: Date;
  updatedAt: Date;
}

export interface DeliveryRecord {
  id: string;
  installationId: string;
  integrationName: string;
  status: DeliveryStatus;
  attempts: number;
  event: ContentEventRecord;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface DeliveryLogRecord {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  at: Date;
}

/** Integrations, their installations and the deliveries of content events to them. */
export interface IntegrationStore {
  /** Creates or updates (then `version` + 1). ConflictError when the name belongs to another organization. */
  publish(name: string, input: IntegrationInput): Promise<IntegrationRecord>;
  get(name: string): Promise<IntegrationRecord | null>;
  /** The sealed webhook address and secret, or null when none is set. */
  webhook(name: string): Promise<{ url: Uint8Array; secret: Uint8Array } | null>;
  delete(name: string): Promise<boolean>;
  /** Installs on an organization (idempotent: the existing installation is returned). */
  install(name: string, organizationId: string): Promise<{ installation: InstallationRecord; created: boolean }>;
  installation(id: string): Promise<InstallationRecord | null>;
  installations(name: string, options: { limit: number; page?: string }): Promise<CountedPage<InstallationRecord>>;
  /** Every installation (any integration), in installation order after `afterSeq`: what the worker's start-up sweep resumes. */
  subscribers(afterSeq: number, limit: number): Promise<Array<{ seq: number; id: string; integrationName: string; organizationId: string }>>;
  /** The space and site selections (of the installation's organization; ValidationError otherwise) and status. */
  updateInstallation(
    id: string,
    patch: {
      spaceSelection?: 'all' | 'selected';
      spaces?: string[];
      siteSelection?: 'all' | 'selected';
      sites?: string[];
      status?: InstallationStatus;
      configuration?: JsonObject;
    },
  ): Promise<InstallationRecord>;
  /** Sets (a sealed tunnel address) or ends (null) development mode; false when the integration is unknown. */
  setDevMode(name: string, dev: { tunnelUrl: Uint8Array; all: boolean } | null): Promise<boolean>;
  /** The sealed tunnel address of development mode, or null when it is off. */
  devTunnel(name: string): Promise<{ url: Uint8Array; all: boolean } | null>;
  /** Integrations, by name: the public ones and those of `organizationIds`, optionally filtered. */
  list(options: {
    organizationIds: string[];
    limit: number;
    page?: string;
    search?: string;
    owner?: string;
    target?: IntegrationTarget;
    category?: string;
  }): Promise<CountedPage<IntegrationRecord>>;
  /** The installation's pending deliveries, oldest event first. */
  pendingDeliveries(installationId: string, limit: number): Promise<DeliveryRecord[]>;
  delivery(id: string): Promise<DeliveryRecord | null>;
  /** Finished deliveries (success or failed) of an integration, newest first. */
  deliveries(name: string, options: { limit: number; page?: string }): Promise<CountedPage<DeliveryRecord>>;
  /** Counts an attempt and logs it. */
  recordAttempt(id: string, log: { level: DeliveryLogRecord['level']; message: string }): Promise<void>;
  /** Ends a delivery (only a pending one; returns whether this call ended it) with a last log line. */
  finishDelivery(id: string, status: 'success' | 'failed', log: { level: DeliveryLogRecord['level']; message: string }): Promise<boolean>;
  logs(id: string): Promise<DeliveryLogRecord[]>;
}
