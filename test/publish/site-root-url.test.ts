import { describe, expect, it } from 'vitest';
import { siteRootUrl } from '../../src/publish/build.js';

describe('the absolute address of a published site', () => {
  it('is its own host name when one serves it, else under the public URL, else unknown', () => {
    expect(siteRootUrl('handbook', { publicUrl: 'https://folio.example.com/', hostnames: { 'docs.example.com': 'handbook' } })).toBe(
      'https://docs.example.com/',
    );
    expect(siteRootUrl('handbook', { publicUrl: 'http://folio.local:8080', hostnames: { 'docs.local:8080': 'handbook' } })).toBe('http://docs.local:8080/');
    expect(siteRootUrl('api docs', { publicUrl: 'https://folio.example.com/base/', hostnames: { 'docs.example.com': 'handbook' } })).toBe(
      'https://folio.example.com/base/sites/api%20docs/',
    );
    expect(siteRootUrl('handbook', {})).toBeNull();
  });
});
