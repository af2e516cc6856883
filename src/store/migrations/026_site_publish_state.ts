import type { Migration } from '../types/index.js';

/**
 * Publishing as the API shows it: a site setting to publish on every new primary revision of its spaces (a
 * change-request merge, a git import, …), and the state of the site's last publish run (status, progress,
 * warnings, error) that the publish workflow writes as it goes.
 */
export const migration: Migration = {
  id: '026_site_publish_state',
  sql: `
ALTER TABLE sites ADD COLUMN publish_on_new_revision boolean NOT NULL DEFAULT false;
ALTER TABLE sites ADD COLUMN publish_state jsonb;
CREATE INDEX site_spaces_space ON site_spaces (space_id);
`,
};
