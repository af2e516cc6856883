/**
 * `loadConfig`: the settings it used to leave to other modules (vault key, public URL, pretty logs, database
 * socket port, git author, supervision, Temporal binaries), invalid values stopping startup with the variable
 * named, and the environment `folio start` builds for its children from the configuration.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { childEnv, configToEnv } from '../../src/config/child-env.js';

describe('loadConfig', () => {
  it('reads the settings other modules used to read themselves', () => {
    const config = loadConfig({
      FOLIO_VAULT_KEY: 'k3y',
      FOLIO_PUBLIC_URL: 'https://docs.example.com/folio/',
      FOLIO_LOG_PRETTY: '0',
      FOLIO_DB_PORT: '6543',
      FOLIO_GIT_AUTHOR_NAME: 'Docs Bot',
      FOLIO_GIT_AUTHOR_EMAIL: 'bot@example.com',
      FOLIO_SUPERVISED: '1',
      FOLIO_TOOLS_DIR: '/opt/folio-tools',
      TEMPORAL_CLI_PATH: '/usr/local/bin/temporal',
      PATH: '/bin:/usr/bin',
    });
    expect(config).toMatchObject({
      vaultKey: 'k3y',
      publicUrl: 'https://docs.example.com/folio',
      logPretty: false,
      dbPort: 6543,
      gitAuthor: { name: 'Docs Bot', email: 'bot@example.com' },
      supervised: true,
      tools: { dir: '/opt/folio-tools', temporalCliPath: '/usr/local/bin/temporal', temporalTestServerPath: undefined, searchPath: '/bin:/usr/bin' },
    });
  });

  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      vaultKey: undefined,
      publicUrl: undefined,
      logPretty: undefined,
      dbPort: 5432,
      gitAuthor: { name: 'Folio', email: 'folio@localhost' },
      supervised: false,
      logLevel: 'info',
    });
    expect(config.tools.dir.endsWith(`${path.sep}.tools`)).toBe(true);
    expect(loadConfig({ FOLIO_LOG_PRETTY: '1' }).logPretty).toBe(true);
  });

  it.each([
    ['PORT', 'http', /PORT must be a whole number from 0 to 65535, got "http"/],
    ['PORT', '70000', /PORT must be a whole number from 0 to 65535/],
    ['TEMPORAL_PORT', '0', /TEMPORAL_PORT must be a whole number from 1 to 65535/],
    ['FOLIO_DB_PORT', '5432.5', /FOLIO_DB_PORT must be a whole number from 1 to 65535/],
    ['FOLIO_GIT_MAX_PAGES', '-1', /FOLIO_GIT_MAX_PAGES must be a whole number of at least 0/],
    ['FOLIO_PURGE_AFTER_MS', '7d', /FOLIO_PURGE_AFTER_MS must be a whole number/],
    ['FETCH_DENY_PRIVATE_NETWORKS', 'flase', /FETCH_DENY_PRIVATE_NETWORKS must be true or false/],
    ['FOLIO_LOG_PRETTY', 'yes please', /FOLIO_LOG_PRETTY must be true or false/],
    ['LOG_LEVEL', 'verbose', /LOG_LEVEL must be one of .*"debug".*, got "verbose"/],
    ['FOLIO_BLOB_STORE', 'memory', /FOLIO_BLOB_STORE must be one of "database", "directory", "s3", got "memory"/],
    ['FOLIO_PUBLIC_URL', 'docs.example.com', /FOLIO_PUBLIC_URL must be an http: or https: URL/],
    ['FOLIO_PUBLIC_URL', 'ftp://docs.example.com', /FOLIO_PUBLIC_URL must be an http: or https: URL/],
    ['FOLIO_PUBLIC_URL', 'https://u:p@docs.example.com', /FOLIO_PUBLIC_URL must not hold credentials/],
  ])('%s=%s stops startup, naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('a typo in a boolean no longer turns the fetch guard off', () => {
    expect(() => loadConfig({ FETCH_DENY_PRIVATE_NETWORKS: 'ture' })).toThrow(/FETCH_DENY_PRIVATE_NETWORKS/);
    expect(loadConfig({ FETCH_DENY_PRIVATE_NETWORKS: 'off' }).fetchDenyPrivateNetworks).toBe(false);
  });
});

describe('the environment of the children of folio start', () => {
  const env = {
    PATH: '/bin:/usr/bin',
    HOME: '/home/folio',
    DATA_DIR: '/srv/folio',
    FOLIO_VAULT_KEY: 'shared-secret',
    FOLIO_PUBLIC_URL: 'https://docs.example.com',
    FOLIO_GIT_AUTHOR_NAME: 'Docs Bot',
    FETCH_ALLOW_HOSTS: 'git.internal,10.0.0.0/8',
    FOLIO_TASK_QUEU: 'typo',
    LOG_LEVEL: 'debug',
  };

  it('carries the configuration the supervisor read, the system variables, and no unknown FOLIO_* variable', () => {
    const config = loadConfig(env);
    const child = childEnv({ ...config, logPretty: false, supervised: true, databaseUrl: 'postgresql://db/folio' }, env);
    expect(child).toMatchObject({
      PATH: '/bin:/usr/bin',
      HOME: '/home/folio',
      FOLIO_LOG_PRETTY: '0',
      FOLIO_SUPERVISED: '1',
      DATABASE_URL: 'postgresql://db/folio',
    });
    expect(child).not.toHaveProperty('FOLIO_TASK_QUEU');
    const read = loadConfig(child);
    expect(read).toEqual({ ...config, logPretty: false, supervised: true, databaseUrl: 'postgresql://db/folio' });
  });

  it('configToEnv round-trips every setting through loadConfig', () => {
    const config = loadConfig({
      ...env,
      FOLIO_TASK_QUEU: undefined,
      TEMPORAL_TEST_SERVER_PATH: '/x/test-server',
      FOLIO_BOOTSTRAP_TOKEN: 'tok',
      FOLIO_LOG_PRETTY: '1',
      FOLIO_BLOB_STORE: 'directory',
      OPENAPI_REFRESH_INTERVAL: '2d',
    });
    expect(loadConfig({ PATH: env.PATH, ...configToEnv(config) })).toEqual(config);
  });
});
