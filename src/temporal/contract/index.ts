/**
 * The Temporal contract: workflow ids, search attributes, signal and query names, and the input/output types
 * of every workflow. Imported by `workflows/` (deterministic: no Node built-ins, no Temporal runtime package
 * here), by activities and by the start module; it imports nothing itself.
 */
export * from './ids.js';
export * from './search-attributes.js';
export * from './spaces.js';
export * from './progress.js';
export * from './git.js';
export * from './purge.js';
export * from './openapi.js';
export * from './translations.js';
export * from './templates.js';
export * from './publish.js';
export * from './pdf.js';
export * from './workflows.js';
export * from './search.js';
export * from './imports.js';
export * from './webhooks.js';
export * from './change-requests.js';
