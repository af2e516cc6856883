/** The git workflows' signals and queries, defined from the contract's names (`src/temporal/contract/git.ts`). */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import { gitQueries, gitSignals, type GitProgress, type GitQueueView, type GitSyncRequest } from '../src/temporal/contract/git.js';

export const enqueueGitRequestSignal = defineSignal<[GitSyncRequest]>(gitSignals.enqueue);
export const gitQueueStateQuery = defineQuery<GitQueueView>(gitQueries.queueState);
export const gitProgressSignal = defineSignal<[GitProgress]>(gitSignals.progress);
export const gitProgressQuery = defineQuery<GitProgress | null>(gitQueries.progress);
