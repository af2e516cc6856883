import type { Migration } from '../types/index.js';

/**
 * Integrations, continued (issue 28):
 * - development mode: `integrations.dev_tunnel_url` (sealed, like the webhook) receives the integration's events
 *   while set; `dev_all` false limits that to the installations on the owning organization;
 * - site selection: `integration_installations.site_selection` (`all` or `selected`) and the selected sites in
 *   `integration_installation_sites`; a site's events go to the installations that cover the site.
 */
export const migration: Migration = {
  id: '024_integration_dev_sites',
  sql: `
ALTER TABLE integrations ADD COLUMN dev_tunnel_url bytea;
ALTER TABLE integrations ADD COLUMN dev_all boolean NOT NULL DEFAULT false;
ALTER TABLE integration_installations ADD COLUMN site_selection text NOT NULL DEFAULT 'all';

CREATE TABLE integration_installation_sites (
  installation_id  text NOT NULL REFERENCES integration_installations(id) ON DELETE CASCADE,
  site_id          text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  PRIMARY KEY (installation_id, site_id)
);
`,
};
