/** The content import workflow's signal and query, defined from the contract's names (`src/temporal/contract/imports.ts`). */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import { contentImportQueries, contentImportSignals, type ContentImportProgress } from '../src/temporal/contract/imports.js';

export const contentImportProgressSignal = defineSignal<[ContentImportProgress]>(contentImportSignals.progress);
export const contentImportProgressQuery = defineQuery<ContentImportProgress | null>(contentImportQueries.progress);
