import { describe, expect, it } from 'vitest';
import { splitUrlCredentials } from '../../src/net/url-credentials.js';
import { UrlInvalidError } from '../../src/net/errors.js';
import { GitRequestError, parseGitRequest } from '../../src/gitsync/request.js';
import { cacheKey, resolveRemote } from '../../src/git/index.js';

describe('splitUrlCredentials (the one URL-credential splitter)', () => {
  it('takes percent-decoded basic-auth credentials out of the URL', () => {
    expect(splitUrlCredentials('https://bot:p%40ss%3Aword@git.example.com/org/repo.git')).toEqual({
      url: 'https://git.example.com/org/repo.git',
      credentials: { username: 'bot', password: 'p@ss:word' },
    });
    expect(splitUrlCredentials('https://token@git.example.com/r.git').credentials).toEqual({ username: 'token', password: '' });
    expect(splitUrlCredentials('https://:secret@git.example.com/r.git').credentials).toEqual({ username: '', password: 'secret' });
    expect(splitUrlCredentials('http://git.example.com:8080/r.git')).toEqual({ url: 'http://git.example.com:8080/r.git' });
  });

  it('normalises: no fragment, no trailing slash (unless a query follows), host lowercased', () => {
    expect(splitUrlCredentials('https://GIT.example.com/org/repo.git/#readme').url).toBe('https://git.example.com/org/repo.git');
    expect(splitUrlCredentials('https://git.example.com/').url).toBe('https://git.example.com');
    expect(splitUrlCredentials('https://git.example.com/r/?a=1/').url).toBe('https://git.example.com/r/?a=1/');
  });

  it('refuses what is not an absolute http(s) URL with a host, without repeating the URL', () => {
    const refused = [
      'ssh://git@example.com/r.git',
      'file:///etc/passwd',
      'not a url with secret:pw@',
      '::bad://user:topsecret@x',
      'https://user:%E0%A4%A@example.com/r.git',
    ];
    for (const raw of refused) {
      let caught: unknown;
      try {
        splitUrlCredentials(raw);
      } catch (err) {
        caught = err;
      }
      expect(caught, raw).toBeInstanceOf(UrlInvalidError);
      expect((caught as UrlInvalidError).code).toBe('URL_INVALID');
      expect(String((caught as Error).message)).not.toMatch(/secret|passwd|%E0/);
    }
    expect(() => splitUrlCredentials('ssh://git@example.com/r.git')).toThrow(/scheme ssh:/);
  });

  it('gives the API request, the git remote and the cache key one URL for the same remote', () => {
    const forms = ['https://bot:pw@git.example.com/org/repo.git', 'https://git.example.com/org/repo.git/', 'https://git.example.com/org/repo.git#main'];
    const requested = forms.map((url) => parseGitRequest('import', { url, ref: 'refs/heads/main' }).url);
    const remotes = forms.map((url) => resolveRemote(url).url);
    expect(new Set([...requested, ...remotes])).toEqual(new Set(['https://git.example.com/org/repo.git']));
    expect(new Set(forms.map((url) => cacheKey({ url, ref: 'refs/heads/main' }))).size).toBe(1);
    expect(parseGitRequest('import', { url: forms[0], ref: 'refs/heads/main' }).credentials).toEqual({ username: 'bot', password: 'pw' });
  });

  it('makes a refused URL a 400-class GitRequestError in API requests', () => {
    expect(() => parseGitRequest('import', { url: 'ftp://x/r.git', ref: 'refs/heads/main' })).toThrow(GitRequestError);
    expect(() => parseGitRequest('import', { url: 'https://u:%zz@x/r.git', ref: 'refs/heads/main' })).toThrow(GitRequestError);
  });
});
