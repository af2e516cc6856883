// Every workflow Folio's worker runs. Deterministic code only: activities are imported as types.
export { createSpaceWorkflow } from './spaces.js';
export { purgeSpaceWorkflow } from './purge.js';
