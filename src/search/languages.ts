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

/** ISO 639-3 codes (as franc-min detects them) of the languages PostgreSQL has a snowball configuration for. */
const BY_ISO3: Record<string, string> = {
  arb: 'arabic',
  hye: 'armenian',
  eus: 'basque',
  cat: 'catalan',
  dan: 'danish',
  nld: 'dutch',
  eng: 'english',
  est: 'estonian',
  fin: 'finnish',
  fra: 'french',
  deu: 'german',
  ell: 'greek',
  hin: 'hindi',
  hun: 'hungarian',
  ind: 'indonesian',
  gle: 'irish',
  ita: 'italian',
  lit: 'lithuanian',
  npi: 'nepali',
  nob: 'norwegian',
  nno: 'norwegian',
  por: 'portuguese',
  ron: 'romanian',
  rus: 'russian',
  srp: 'serbian',
  spa: 'spanish',
  swe: 'swedish',
  tam: 'tamil',
  tur: 'turkish',
  ydd: 'yiddish',
};

/** The configuration of a detected language (ISO 639-3, `und` when undetermined): `simple` when none fits. */
export function detectedConfigName(iso3: string | null): string {
  return BY_ISO3[iso3 ?? ''] ?? 'simple';
}

/** Characters of a space's text the language is detected from (titles first, then bodies in tree order). */
export const LANGUAGE_SAMPLE_CHARS = 16_000;

/**
 * The language of a sample of a space's markdown (ISO 639-3, `und` when undetermined): franc-min on its prose,
 * code blocks, inline code, HTML and Liquid tags, URLs and link targets left out. Runs in a parse thread
 * (`search.detectLanguage`); the sample is cut at `LANGUAGE_SAMPLE_CHARS` characters.
 */
export async function detectLanguage(sample: string): Promise<string> {
  const { franc } = await import('franc-min');
  const prose = sample
    .slice(0, LANGUAGE_SAMPLE_CHARS)
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/\{%[\s\S]*?%\}|<[^>\n]*>|\]\([^)\n]*\)|https?:\/\/\S+/g, ' ');
  return franc(prose, { minLength: 40 });
}
