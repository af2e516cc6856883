import path from 'node:path';
import { projectRoot } from '../project-root.js';
import type { ConfigVariable } from './variables.js';

/** Where Folio finds the Temporal binaries (read apart from `loadConfig`, so the install scripts need no other setting). */
export interface ToolsConfig {
  /** FOLIO_TOOLS_DIR: the project-local virtualenv holding the Temporal binaries (default `.tools/`). */
  dir: string;
  /** TEMPORAL_CLI_PATH: the `temporal` CLI to use. */
  temporalCliPath: string | undefined;
  /** TEMPORAL_TEST_SERVER_PATH: the time-skipping test server (tests only). */
  temporalTestServerPath: string | undefined;
  /** The system's PATH, searched last. */
  searchPath: string;
}

export function loadToolsConfig(env: NodeJS.ProcessEnv = process.env): ToolsConfig {
  const get = (name: ConfigVariable) => env[name] || undefined;
  return {
    dir: path.resolve(get('FOLIO_TOOLS_DIR') ?? path.join(projectRoot(), '.tools')),
    temporalCliPath: get('TEMPORAL_CLI_PATH'),
    temporalTestServerPath: get('TEMPORAL_TEST_SERVER_PATH'),
    searchPath: env.PATH ?? '',
  };
}
