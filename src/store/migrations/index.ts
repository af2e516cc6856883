import type { Migration } from '../types/index.js';
import { migration as core } from './001_core.js';
import { migration as gitSync } from './002_git_sync.js';
import { migration as openapi } from './003_openapi.js';
import { migration as changeRequests } from './004_change_requests.js';
import { migration as changeRequestMergedBy } from './005_change_request_merged_by.js';
import { migration as tokenScopeExpiry } from './006_token_scope_expiry.js';
import { migration as vaultSecrets } from './007_vault_secrets.js';
import { migration as translations } from './009_translations.js';
import { migration as spaceTemplates } from './008_space_templates.js';
import { migration as parseCache } from './014_parse_cache.js';
import { migration as searchIndex } from './012_search_index.js';
import { migration as importRuns } from './010_import_runs.js';
import { migration as sites } from './011_sites.js';
import { migration as spaceDefaultLevel } from './015_space_default_level.js';
import { migration as storageUploads } from './016_storage_uploads.js';
import { migration as revisionRowsWithoutForeignKeys } from './017_revision_rows_without_foreign_keys.js';
import { migration as people } from './018_people.js';
import { migration as searchTrigram } from './019_search_trigram.js';
import { migration as collections } from './020_collections.js';
import { migration as comments } from './021_comments.js';
import { migration as changeRequestReviews } from './022_change_request_reviews.js';
import { migration as eventsIntegrations } from './023_events_integrations.js';
import { migration as integrationDevSites } from './024_integration_dev_sites.js';
import { migration as pdfExports } from './025_pdf_exports.js';
import { migration as sitePublishState } from './026_site_publish_state.js';
import { migration as translationRunInput } from './027_translation_run_input.js';
import { migration as siteSections } from './028_site_sections.js';
import { migration as siteSettings } from './029_site_settings.js';
import { migration as publicationLayers } from './030_publication_layers.js';
import { migration as searchProminentWords } from './031_search_section_prominent_words.js';

/**
 * Every migration, in order. To add one: create `NNN_name.ts` exporting `migration: Migration`
 * (id `NNN_name`) and append it here. Applied migrations are never edited; write a new one.
 */
export const migrations: readonly Migration[] = [
  core,
  gitSync,
  openapi,
  changeRequests,
  changeRequestMergedBy,
  tokenScopeExpiry,
  vaultSecrets,
  spaceTemplates,
  translations,
  importRuns,
  sites,
  searchIndex,
  parseCache,
  spaceDefaultLevel,
  storageUploads,
  revisionRowsWithoutForeignKeys,
  people,
  searchTrigram,
  collections,
  comments,
  changeRequestReviews,
  eventsIntegrations,
  integrationDevSites,
  pdfExports,
  sitePublishState,
  translationRunInput,
  siteSections,
  siteSettings,
  publicationLayers,
  searchProminentWords,
];
