import type { Migration } from '../types/index.js';

/**
 * The key of what a translation run's result was made from (source revision, language pair, glossary terms): a
 * later run with the same key and a clean previous result reuses that result instead of writing it again.
 */
export const migration: Migration = {
  id: '027_translation_run_input',
  sql: `ALTER TABLE translation_runs ADD COLUMN input_key text;`,
};
