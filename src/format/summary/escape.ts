/** CommonMark backslash escapes as used in SUMMARY.md link text and (2021-era) destinations. */

const ESCAPABLE = /\\([!-/:-@[-`{-~])/g;

export function unescapeMarkdown(s: string): string {
  return s.replace(ESCAPABLE, '$1');
}

/** Escape link text the way GitBook's exporter does (`pg\_hba.conf`, `stt \[legacy\]`). */
export function escapeLinkText(s: string, escapeParens = false): string {
  return s.replace(escapeParens ? /[\\[\]_*`<()]/g : /[\\[\]_*`<]/g, (c) => '\\' + c);
}

/** 2021-era destination escaping (`internals/pg\_statistic.md`). */
export function escapeLegacyDestination(s: string): string {
  return s.replace(/[\\_*`]/g, (c) => '\\' + c);
}

/** Current-era destination: bare, or in angle brackets when it holds spaces or parentheses. */
export function formatDestination(dest: string, legacy: boolean): string {
  if (/[\s()<>]/.test(dest)) return `<${dest.replace(/[<>]/g, (c) => '\\' + c)}>`;
  return legacy ? escapeLegacyDestination(dest).replace(/\[/g, '\\[') : dest.replace(/[\\[]/g, (c) => '\\' + c);
}

export function formatLinkTitle(title: string): string {
  return `"${title.replace(/["\\]/g, (c) => '\\' + c)}"`;
}
