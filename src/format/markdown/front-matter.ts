import yaml from 'js-yaml';
import { FrontMatterInvalidError } from './errors.js';
import { expandsBeyond } from './yaml-size.js';

/** Most values front matter may hold once its YAML aliases are expanded (real front matter holds a few dozen). */
export const MAX_FRONT_MATTER_VALUES = 10_000;

/** One top-level key of the front matter with its exact source lines. */
interface Entry {
  key: string;
  /** Source text of the entry (key line plus its nested lines), ending in `\n`. */
  raw: string;
}

const TOP_LEVEL_KEY = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#'"\-?:][^:]*?|-[^\s:][^:]*?))[ \t]*:(?:[ \t]|$)/;

export interface FrontMatterLinks {
  canonical?: string;
  alternates?: string[];
}

/**
 * Page front matter. Keeps the YAML source: unchanged keys re-serialize byte-for-byte, keys set
 * through `set()` are written in js-yaml `dump()` default style. Invalid YAML keeps its raw text
 * (`valid === false`, `error` set) and reads as an empty mapping.
 */
export class FrontMatter {
  private prefix = '';
  private entries: Entry[] = [];
  private values: Record<string, unknown> = {};
  /** Raw text used verbatim when the YAML could not be split into entries. */
  private opaque: string | null = null;
  readonly error: FrontMatterInvalidError | null;

  private constructor(raw: string, error: FrontMatterInvalidError | null) {
    this.error = error;
    if (error) {
      this.opaque = raw;
      return;
    }
    this.split(raw);
  }

  /** Parse YAML text (without the `---` fences). Never throws. */
  static parse(raw: string): FrontMatter {
    let values: unknown;
    try {
      values = raw.trim() === '' ? {} : yaml.load(raw, { schema: yaml.CORE_SCHEMA });
    } catch (e) {
      const err = e as { reason?: string; message?: string; mark?: { line?: number } };
      const fm = new FrontMatter(
        raw,
        new FrontMatterInvalidError(err.reason ?? String(err.message), err.mark?.line === undefined ? undefined : err.mark.line + 2),
      );
      return fm;
    }
    if (values === null || values === undefined) values = {};
    if (typeof values !== 'object' || Array.isArray(values)) {
      return new FrontMatter(raw, new FrontMatterInvalidError('front matter is not a mapping'));
    }
    if (expandsBeyond(values, MAX_FRONT_MATTER_VALUES)) {
      return new FrontMatter(raw, new FrontMatterInvalidError(`YAML aliases expand the front matter to more than ${MAX_FRONT_MATTER_VALUES} values`));
    }
    const fm = new FrontMatter(raw, null);
    fm.values = values as Record<string, unknown>;
    if (fm.opaque === null && fm.entries.map((e) => e.key).join('\u0000') !== Object.keys(fm.values).join('\u0000')) {
      // Unusual layout (flow mapping, anchors, duplicate keys): keep the whole text verbatim.
      fm.opaque = raw;
      fm.entries = [];
      fm.prefix = '';
    }
    return fm;
  }

  /** Create an empty front matter (for new pages). */
  static create(values: Record<string, unknown> = {}): FrontMatter {
    const fm = FrontMatter.parse('');
    for (const [k, v] of Object.entries(values)) fm.set(k, v);
    return fm;
  }

  private split(raw: string): void {
    const lines = raw.split(/(?<=\n)/);
    let current: Entry | null = null;
    for (const line of lines) {
      const m = TOP_LEVEL_KEY.exec(line);
      if (m) {
        const key = m[1] !== undefined ? (JSON.parse(`"${m[1]}"`) as string) : m[2] !== undefined ? m[2].replace(/''/g, "'") : m[3]!;
        current = { key, raw: line };
        this.entries.push(current);
      } else if (current) current.raw += line;
      else this.prefix += line;
    }
  }

  get valid(): boolean {
    return this.error === null;
  }

  keys(): string[] {
    return this.opaque !== null ? Object.keys(this.values) : this.entries.map((e) => e.key);
  }

  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.values, key);
  }

  get(key: string): unknown {
    return this.has(key) ? this.values[key] : undefined;
  }

  /** Source text of one key (its lines), or undefined. */
  rawEntry(key: string): string | undefined {
    return this.entries.find((e) => e.key === key)?.raw;
  }

  toObject(): Record<string, unknown> {
    return { ...this.values };
  }

  /** Set a key; new or changed values are written in js-yaml `dump()` default style. */
  set(key: string, value: unknown): this {
    if (value === undefined) return this.delete(key);
    this.materialize();
    const raw = yaml.dump({ [key]: value });
    const existing = this.entries.find((e) => e.key === key);
    if (existing) {
      if (yaml.dump({ [key]: this.values[key] }) !== raw || !this.has(key)) existing.raw = raw;
    } else this.entries.push({ key, raw });
    this.values[key] = value;
    return this;
  }

  delete(key: string): this {
    if (!this.has(key)) return this;
    this.materialize();
    this.entries = this.entries.filter((e) => e.key !== key);
    delete this.values[key];
    return this;
  }

  /** Switch an opaque (unsplittable) front matter to per-key entries; invalid YAML is replaced. */
  private materialize(): void {
    if (this.opaque === null) return;
    this.opaque = null;
    this.prefix = '';
    this.entries = Object.entries(this.values).map(([key, value]) => ({ key, raw: yaml.dump({ [key]: value }) }));
    (this as { error: FrontMatterInvalidError | null }).error = null;
  }

  /** YAML text (without fences). */
  toString(): string {
    if (this.opaque !== null) return this.opaque;
    return this.prefix + this.entries.map((e) => e.raw).join('');
  }

  equals(other: FrontMatter | null): boolean {
    return other !== null && this.toString() === other.toString();
  }

  clone(): FrontMatter {
    return FrontMatter.parse(this.toString());
  }

  // Typed accessors for the keys GitBook writes.
  get description(): string | undefined {
    return str(this.get('description'));
  }
  get icon(): string | undefined {
    return str(this.get('icon'));
  }
  get cover(): string | undefined {
    return str(this.get('cover'));
  }
  get coverY(): number | undefined {
    return num(this.get('coverY'));
  }
  get coverHeight(): number | undefined {
    return num(this.get('coverHeight'));
  }
  get hidden(): boolean {
    return this.get('hidden') === true;
  }
  get noIndex(): boolean {
    return this.get('noIndex') === true;
  }
  get layout(): Record<string, unknown> | undefined {
    return obj(this.get('layout'));
  }
  get metaLinks(): FrontMatterLinks | undefined {
    return obj(this.get('metaLinks')) as FrontMatterLinks | undefined;
  }
  get if(): string | undefined {
    return str(this.get('if'));
  }
  get vars(): Record<string, unknown> | undefined {
    return obj(this.get('vars'));
  }
  get tags(): Array<string | { tag: string; primary?: boolean }> | undefined {
    const t = this.get('tags');
    return Array.isArray(t) ? (t as Array<string | { tag: string; primary?: boolean }>) : undefined;
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}
function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : undefined;
}
function obj(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
