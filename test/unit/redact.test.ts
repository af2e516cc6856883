import { describe, expect, it } from 'vitest';
import { redact, stripCredentials } from '../../src/redact.js';

describe('redact', () => {
  it('masks basic-auth credentials in URLs', () => {
    expect(redact('fetch https://alice:s3cr%40t@git.example.com/r.git failed')).toBe('fetch https://***@git.example.com/r.git failed');
    expect(stripCredentials('https://alice:s3cr3t@git.example.com/r.git')).toBe('https://git.example.com/r.git');
  });

  it('masks bearer token values but keeps the prose that names them', () => {
    expect(redact('Authorization: Bearer folio_AbC123-xyz_987')).toBe('Authorization: Bearer ***');
    expect(redact('a valid bearer token is required')).toBe('a valid bearer token is required');
    expect(redact('bearer tokenized-secret-value')).toBe('bearer ***');
  });
});
