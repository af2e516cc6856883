import { TestWorkflowEnvironment } from '@temporalio/testing';
import { inject } from 'vitest';

/**
 * A time-skipping test environment on the official test server binary installed under .tools/ (never
 * downloaded). Its clock is global to the environment: run such tests serially, one environment per file.
 */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const path = inject('testServerPath');
  if (!path) throw new Error('the Temporal test server binary is missing; run node dist/src/temporal/install-binaries.js');
  return TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } });
}
