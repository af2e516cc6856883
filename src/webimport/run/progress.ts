/** An import run's progress: to the runner (heartbeats, the workflow's live progress) and to the run's row. */
import type { Store } from '../../store/index.js';
import type { ContentImportProgress } from '../../temporal/contract/index.js';
import type { ImportRunControl } from './control.js';

export interface RunProgress {
  readonly control: ImportRunControl;
  report(p: Partial<ContentImportProgress>): void;
  /** The phase is over (whatever its outcome): the last progress is stored and sent. */
  stop(): Promise<void>;
}

/** Progress to the runner and, at most every second, to the run's row (the API's view). */
export function runProgress(store: Store, runId: string, control: ImportRunControl): RunProgress {
  let lastStored = 0;
  let storing: Promise<unknown> = Promise.resolve();
  const storeRow = (force: boolean) => {
    if (!force && Date.now() - lastStored < 1000) return;
    lastStored = Date.now();
    const c = control.current;
    storing = storing
      .then(() =>
        store.imports.update(runId, {
          ...(c.importedResources !== undefined ? { importedResources: c.importedResources } : {}),
          ...(c.totalResources !== undefined ? { totalResources: c.totalResources } : {}),
          currentUrl: c.item ?? null,
        }),
      )
      .catch(() => undefined);
  };
  // A heartbeat even while one slow request waits, so a dead worker is noticed and a cancel reaches a quiet crawl.
  const beat = setInterval(() => control.update({}), 5000);
  return {
    control,
    report(p) {
      control.update(p);
      storeRow(false);
    },
    async stop() {
      clearInterval(beat);
      storeRow(true);
      await storing;
      await control.flush();
    },
  };
}
