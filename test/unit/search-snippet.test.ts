import { describe, expect, it } from 'vitest';
import { buildSnippet, candidateWords, queryLexemes, tokenize } from '../../src/store/search-snippet.js';

/** Words of the text normalised as PostgreSQL's english configuration would for these tests. */
const stems: Record<string, string> = { api: 'api', apis: 'api', api_key: 'api', running: 'run', run: 'run', token: 'token', tokens: 'token' };
const matcher = (lexemes: string[]) => (word: string) => {
  const l = stems[word.toLowerCase()];
  return l !== undefined && lexemes.includes(l) ? l : null;
};
const words = (n: number, tag = 'w') => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');

describe('search snippets from stored section text', () => {
  it('reads every operand of a tsquery, negated, phrase and quoted ones included', () => {
    expect(queryLexemes(`'authent' & 'token'`)).toEqual(['authent', 'token']);
    expect(queryLexemes(`'rate' <-> 'limit' & !'beta' | 'it''s':*`)).toEqual(['rate', 'limit', 'beta', "it's"]);
  });

  it('sends the database only the distinct words that could normalise to a lexeme of the query', () => {
    expect(candidateWords(['The APIs, an api_key and Apple; not <b>apex</b> tag <apx>'], ['api'])).toEqual(['APIs', 'api_key', 'Apple', 'apex']);
    expect(candidateWords(['Éclair and eclairs'], ['eclair'])).toEqual(['Éclair', 'eclairs']);
    expect(candidateWords(['anything'], [])).toEqual([]);
  });

  it('shows up to two windows of 30 words around the matches, in text order, marked and HTML-escaped', () => {
    const body = `${words(40, 'a')} the API & <b>apis</b> ${words(60, 'b')} one more token here ${words(40, 'c')}`;
    const snippet = buildSnippet(body, matcher(['api', 'token']));
    const fragments = snippet.split(' … ');
    expect(fragments).toHaveLength(2);
    expect(fragments[0]).toContain('the <mark>API</mark> &amp; <mark>apis</mark>');
    expect(fragments[1]).toContain('more <mark>token</mark> here');
    for (const f of fragments) expect(f.replace(/<\/?mark>|&\w+;/g, ' ').match(/\w+/g)!.length).toBeLessThanOrEqual(30);
    // Centred: words on both sides of the match.
    expect(fragments[0]).toMatch(/^a\d+ /);
    expect(fragments[0]).toMatch(/ b\d+$/);
    expect(snippet).not.toContain('<b>');
  });

  it('prefers the window holding the most distinct words of the query', () => {
    const body = `token ${words(50, 'a')} api ${words(50, 'b')} api x token y ${words(50, 'c')} api`;
    const snippet = buildSnippet(body, matcher(['api', 'token']));
    expect(snippet).toContain('<mark>api</mark> x <mark>token</mark>');
    // The second window: the first single match in the text (the lone "api" after the a-words is left out).
    expect(snippet).toMatch(/^<mark>token<\/mark> a0 /);
    expect(snippet).not.toContain('a49 <mark>api</mark> b0');
  });

  it('reads a bounded window of a long section, from a little before the first word that could match', () => {
    const long = `${words(30000, 'x')} the running dog ${words(5000, 'y')}`;
    const tokens = tokenize(long, ['run']);
    expect(tokens.text.length).toBeLessThanOrEqual(6000);
    expect(tokens.words).toContain('running');
    expect(buildSnippet(tokens, matcher(['run']))).toContain('the <mark>running</mark> dog');
    // A short text, or no word that could match: from its start.
    expect(tokenize('a short running text', ['run']).text).toBe('a short running text');
    expect(tokenize(long, ['zzz']).words[0]).toBe('x0');
  });

  it('shows the first 12 words when no word matches (the section matched by its title), an empty text as empty', () => {
    expect(buildSnippet(`${words(20)} <i>x</i>`, () => null)).toBe(words(12));
    expect(buildSnippet('', () => null)).toBe('');
    expect(buildSnippet('<script>alert(1)</script> "quoted" run', matcher(['run']))).toBe('alert(1) &quot;quoted&quot; <mark>run</mark>');
  });
});
