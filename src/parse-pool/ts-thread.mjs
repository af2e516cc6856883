// Entry of a parse-pool thread when Folio runs from its TypeScript sources (tests, tsx): registers tsx's loader in
// this thread, then loads the thread module named in workerData. The compiled build starts thread.js directly.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.threadModule);
