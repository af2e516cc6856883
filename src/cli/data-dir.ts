/**
 * Which data a CLI command (`folio org`, `folio token`, `folio site`) opens when DATA_DIR is not set: the running
 * deployment's (a `folio db-server` answering in `./data` or in the checkout's `data/`, where `npm start` keeps it),
 * else existing data there, else a new database in `./data`; the command says which on stderr, never silently.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { projectRoot } from '../project-root.js';
import { dbServerFile, embeddedDataDir, resolveDatabaseUrl } from './open-store.js';

export type DataDirState = 'running' | 'existing' | 'new';

/** The first candidate whose database server runs, else the first holding a database, else the first (new). */
export async function findDataDir(config: Config, candidates: readonly string[]): Promise<{ dir: string; state: DataDirState }> {
  const unique = [...new Set(candidates.map((c) => path.resolve(c)))];
  for (const dir of unique) {
    if (existsSync(dbServerFile(dir)) && (await resolveDatabaseUrl({ ...config, dataDir: dir, databaseUrl: undefined }))) return { dir, state: 'running' };
  }
  for (const dir of unique) if (existsSync(embeddedDataDir(dir))) return { dir, state: 'existing' };
  return { dir: unique[0]!, state: 'new' };
}

const SAID: Record<DataDirState, string> = {
  running: "the running deployment's data",
  existing: 'existing data (no database server of it runs)',
  new: 'a new, empty database (no Folio data was found)',
};

/**
 * The configuration a CLI command opens: unchanged when DATA_DIR or DATABASE_URL is set; else with the data found by
 * `findDataDir` in `./data` and the checkout's `data/`, and a line on stderr naming it.
 */
export async function cliConfig(config: Config, say: (line: string) => void): Promise<Config> {
  if (config.dataDirSet || config.databaseUrl) return config;
  const { dir, state } = await findDataDir(config, [config.dataDir, path.join(projectRoot(), 'data')]);
  say(`folio: DATA_DIR is not set; opened ${dir}: ${SAID[state]}. Set DATA_DIR to open another.\n`);
  return { ...config, dataDir: dir };
}
