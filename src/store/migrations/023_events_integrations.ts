import type { Migration } from '../types/index.js';

/**
 * Content events and the integrations that receive them (issue 28).
 *
 * - `content_events`: what happened, recorded in the transaction that made it happen. Each event belongs to a
 *   stream (its space, or `site:<id>`, `openapi:<id>`, …) and is numbered in it (`seq`, 1, 2, …): the counter row of
 *   `content_event_streams` is locked by the recording transaction, so numbers follow commit order per stream.
 * - `integrations` (owned by an organization; the webhook address and secret sealed, never stored in clear) and
 *   their `integration_installations` on an organization (all spaces, or the ones in `integration_installation_spaces`).
 * - `integration_deliveries`: one row per event and active installation, written with the event (so an event is
 *   never missed by a delivery loop that was not running), `pending` until delivered (`success`) or given up
 *   (`failed`); `integration_delivery_logs` is its trace.
 * - `git_push_secrets`: per space, the sealed secret that signs the git host's push webhooks (push-triggered sync).
 */
export const migration: Migration = {
  id: '023_events_integrations',
  sql: `
CREATE TABLE content_event_streams (
  stream    text PRIMARY KEY,
  last_seq  bigint NOT NULL
);

CREATE TABLE content_events (
  position         bigserial PRIMARY KEY,
  id               text NOT NULL UNIQUE,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  type             text NOT NULL,
  stream           text NOT NULL,
  seq              bigint NOT NULL,
  space_id         text,
  payload          jsonb NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream, seq)
);
CREATE INDEX content_events_org ON content_events (organization_id, position);

CREATE TABLE integrations (
  name             text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  version          integer NOT NULL DEFAULT 1,
  title            text NOT NULL,
  description      text NOT NULL,
  summary          text,
  target           text NOT NULL,
  visibility       text NOT NULL,
  scopes           jsonb NOT NULL,
  categories       jsonb NOT NULL,
  webhook_url      bytea,
  webhook_secret   bytea,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX integrations_org ON integrations (organization_id);

CREATE TABLE integration_installations (
  id                text PRIMARY KEY,
  seq               bigserial UNIQUE,
  integration_name  text NOT NULL REFERENCES integrations(name) ON DELETE CASCADE,
  organization_id   text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  status            text NOT NULL DEFAULT 'active',
  space_selection   text NOT NULL DEFAULT 'all',
  configuration     jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (integration_name, organization_id)
);
CREATE INDEX integration_installations_org ON integration_installations (organization_id);

CREATE TABLE integration_installation_spaces (
  installation_id  text NOT NULL REFERENCES integration_installations(id) ON DELETE CASCADE,
  space_id         text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  PRIMARY KEY (installation_id, space_id)
);

CREATE TABLE integration_deliveries (
  id               text PRIMARY KEY,
  installation_id  text NOT NULL REFERENCES integration_installations(id) ON DELETE CASCADE,
  event_position   bigint NOT NULL REFERENCES content_events(position) ON DELETE CASCADE,
  status           text NOT NULL DEFAULT 'pending',
  attempts         integer NOT NULL DEFAULT 0,
  created_at       timestamptz NOT NULL DEFAULT now(),
  finished_at      timestamptz,
  UNIQUE (installation_id, event_position)
);
CREATE INDEX integration_deliveries_pending ON integration_deliveries (installation_id, event_position) WHERE status = 'pending';
CREATE INDEX integration_deliveries_finished ON integration_deliveries (installation_id, finished_at) WHERE status <> 'pending';

CREATE TABLE integration_delivery_logs (
  id           bigserial PRIMARY KEY,
  delivery_id  text NOT NULL REFERENCES integration_deliveries(id) ON DELETE CASCADE,
  level        text NOT NULL,
  message      text NOT NULL,
  at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX integration_delivery_logs_delivery ON integration_delivery_logs (delivery_id, id);

CREATE TABLE git_push_secrets (
  space_id    text PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,
  sealed      bytea NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
`,
};
