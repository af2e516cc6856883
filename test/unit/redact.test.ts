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

describe('redact: secrets in paths and queries', () => {
  it('masks a signed upload URL secret and share keys, tokens and signatures in queries', () => {
    const secret = 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWo';
    expect(redact(`PUT /storage/uploads/${secret}`)).toBe('PUT /storage/uploads/***');
    expect(redact(`https://folio.test/storage/uploads/${secret}?x=1`)).toBe('https://folio.test/storage/uploads/***?x=1');
    expect(redact(`GET /pdf-exports/${secret}`)).toBe('GET /pdf-exports/***');
    expect(redact('/sites/handbook/?share=AbC123_-xyz')).toBe('/sites/handbook/?share=***');
    expect(redact('/sites/handbook/guide/?q=install&share=AbC123&page=2')).toBe('/sites/handbook/guide/?q=install&share=***&page=2');
    expect(redact('https://s3.test/b/k?X-Amz-Credential=AKIA%2F1&X-Amz-Signature=deadbeef')).toBe(
      'https://s3.test/b/k?X-Amz-Credential=***&X-Amz-Signature=***',
    );
    expect(redact('GET /x?access_token=abc&api_key=def&token=ghi')).toBe('GET /x?access_token=***&api_key=***&token=***');
    // Not secrets: other parameters, and the words in prose.
    expect(redact('/v1/orgs/o/search?query=share+key&limit=10')).toBe('/v1/orgs/o/search?query=share+key&limit=10');
    expect(redact('a share link key is required')).toBe('a share link key is required');
  });
});
