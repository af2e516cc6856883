/**
 * The PostgreSQL text search configuration of a space's language: ISO 639-1 code (or a tag such as `en-US`,
 * `pt_BR`) to the snowball configuration of that language when the database has it, `simple` (no stemming,
 * no stop words) otherwise — Chinese, Japanese and Korean included (see ./text.ts).
 */

const BY_CODE: Record<string, string> = {
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  ca: 'catalan',
  da: 'danish',
  nl: 'dutch',
  en: 'english',
  et: 'estonian',
  fi: 'finnish',
  fr: 'french',
  de: 'german',
  el: 'greek',
  hi: 'hindi',
  hu: 'hungarian',
  id: 'indonesian',
  ga: 'irish',
  it: 'italian',
  lt: 'lithuanian',
  ne: 'nepali',
  no: 'norwegian',
  nb: 'norwegian',
  nn: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  es: 'spanish',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
};

/** The snowball configuration wanted for a space language (`simple` when none fits); the store falls back to `simple` when the database lacks it. */
export function searchConfigName(language: string | null): string {
  const code = (language ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return BY_CODE[code] ?? 'simple';
}
