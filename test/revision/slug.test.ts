import { describe, expect, it } from 'vitest';
import { FALLBACK_SLUG, MAX_SLUG_LENGTH, slugify, uniqueSlug } from '../../src/format/slug.js';

describe('slugify (the one slug rule)', () => {
  it('makes lowercase ASCII words joined by - from Latin titles', () => {
    expect(slugify('Getting Started')).toBe('getting-started');
    expect(slugify('  API: v2 / "Quick" reference!  ')).toBe('api-v2-quick-reference');
    expect(slugify('pg_hba.conf')).toBe('pg-hba-conf');
  });

  it('drops Latin diacritics and folds compatibility forms', () => {
    expect(slugify('Café Crème')).toBe('cafe-creme');
    expect(slugify('Ångström Über')).toBe('angstrom-uber');
    expect(slugify('İstanbul')).toBe('istanbul');
    expect(slugify('ﬁle Ａ１')).toBe('file-a1');
  });

  it('keeps the letters of other scripts whole (Traditional Chinese of the corpus, Japanese, Korean, Devanagari)', () => {
    expect(slugify('快速開始')).toBe('快速開始');
    expect(slugify('安裝 PostgreSQL 資料庫')).toBe('安裝-postgresql-資料庫');
    expect(slugify('第一章：簡介')).toBe('第一章-簡介');
    // Kana with a voiced mark and Hangul syllables are not left decomposed (ガ is カ + U+3099 under NFKD).
    expect(slugify('ガイド')).toBe('ガイド');
    expect(slugify('한국어 문서')).toBe('한국어-문서');
    expect(slugify('हिन्दी')).toBe('हिन्दी');
    expect(slugify('Ωmega Σ')).toBe('ωmega-σ');
  });

  it('turns emoji into separators, keycaps and variation selectors included', () => {
    expect(slugify('🚀 Getting started')).toBe('getting-started');
    expect(slugify('Deploy ✈️ now 🎉')).toBe('deploy-now');
    expect(slugify('1️⃣ First step')).toBe('1-first-step');
    expect(slugify('👩‍💻 Developers')).toBe('developers');
  });

  it('gives page for a title that leaves nothing', () => {
    expect(slugify('')).toBe(FALLBACK_SLUG);
    expect(slugify('   ')).toBe(FALLBACK_SLUG);
    expect(slugify('🚀🎉')).toBe(FALLBACK_SLUG);
    expect(slugify('--- !!! ---')).toBe(FALLBACK_SLUG);
  });

  it('cuts long titles to the limit between graphemes, never ending with -', () => {
    const long = slugify('word '.repeat(60));
    expect([...long].length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(long.endsWith('-')).toBe(false);
    expect(long.startsWith('word-word')).toBe(true);
    const cjk = slugify('資'.repeat(150));
    expect([...cjk].length).toBe(MAX_SLUG_LENGTH);
    // A Devanagari syllable (consonant + vowel sign) is not split by the cut.
    const hindi = slugify('कि'.repeat(80));
    expect([...hindi].length).toBe(MAX_SLUG_LENGTH);
    expect(hindi.endsWith('ि')).toBe(true);
  });

  it('is stable: a slug slugifies to itself', () => {
    for (const t of ['Café Crème', '快速開始', '🚀 Getting started', 'x'.repeat(300)]) expect(slugify(slugify(t))).toBe(slugify(t));
  });
});

describe('uniqueSlug', () => {
  it('keeps a free slug and suffixes a taken one with the first free number', () => {
    expect(uniqueSlug('intro', new Set())).toBe('intro');
    expect(uniqueSlug('intro', new Set(['intro']))).toBe('intro-2');
    expect(uniqueSlug('intro', new Set(['intro', 'intro-2', 'intro-3']))).toBe('intro-4');
  });

  it('stays within the length limit', () => {
    const wanted = 'a'.repeat(MAX_SLUG_LENGTH);
    const got = uniqueSlug(wanted, new Set([wanted]));
    expect([...got].length).toBe(MAX_SLUG_LENGTH);
    expect(got.endsWith('-2')).toBe(true);
  });
});
