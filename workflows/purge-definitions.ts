/** The purge workflow's signal and query, defined from the contract's names (`src/temporal/contract/purge.ts`). */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import { purgeQueries, purgeSignals, type RestoreSpaceSignalArgs } from '../src/temporal/contract/purge.js';

export const restoreSpaceSignal = defineSignal<[RestoreSpaceSignalArgs]>(purgeSignals.restore);
export const purgeDeletionQuery = defineQuery<string>(purgeQueries.deletionId);
