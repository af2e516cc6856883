import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { parseRefreshInterval } from '../../src/refresh-interval.js';

describe('OPENAPI_REFRESH_INTERVAL', () => {
  it('parses a whole number with a unit into milliseconds', () => {
    expect(parseRefreshInterval('6h')).toBe(6 * 3600_000);
    expect(parseRefreshInterval('30m')).toBe(30 * 60_000);
    expect(parseRefreshInterval(' 1D ')).toBe(24 * 3600_000);
    expect(parseRefreshInterval('90s')).toBe(90_000);
    expect(parseRefreshInterval('2w')).toBe(14 * 24 * 3600_000);
  });

  it('refuses garbage, missing units, and intervals out of range, naming the variable', () => {
    for (const bad of ['garbage', '', '6', '-1h', '1.5h', '6 hours', 'h', '0m', '30s', '400d', '1h30m']) {
      expect(() => parseRefreshInterval(bad), bad).toThrow(/OPENAPI_REFRESH_INTERVAL/);
    }
  });

  it('fails loadConfig at startup on a bad value and keeps a good one', () => {
    expect(() => loadConfig({ OPENAPI_REFRESH_INTERVAL: 'every six hours' })).toThrow(/OPENAPI_REFRESH_INTERVAL must be .*"every six hours"/);
    expect(loadConfig({ OPENAPI_REFRESH_INTERVAL: '12h' }).openapiRefreshInterval).toBe('12h');
    expect(loadConfig({}).openapiRefreshInterval).toBe('6h');
  });
});
