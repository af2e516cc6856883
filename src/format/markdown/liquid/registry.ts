import type { LiquidBlock } from '../types.js';

/** Declares how one Liquid tag behaves. */
export interface LiquidTagSpec {
  name: string;
  /** `required`: always has an end tag; `optional`: with or without (`embed`, `file`); `none`: never. */
  end: 'required' | 'optional' | 'none';
  /** Canonical attribute order written by GitBook (used by `orderAttributes`). */
  attributeOrder?: string[];
  /** Attribute names (or `null` for the first positional argument) holding a path/URL reference. */
  referenceAttributes?: Array<string | null>;
  /** Plugin name, for diagnostics. */
  plugin: string;
}

/** A Folio markdown plugin for one GitBook construct. */
export interface GitbookConstructPlugin {
  name: string;
  /** Liquid tags the construct uses. */
  tags?: LiquidTagSpec[];
}

export class LiquidRegistry {
  private readonly specs = new Map<string, LiquidTagSpec>();
  /** Accept every `{% @integration/block … %}` tag. */
  integrationBlocks = false;

  add(plugin: GitbookConstructPlugin): this {
    for (const t of plugin.tags ?? []) this.specs.set(t.name, t);
    return this;
  }

  get(name: string): LiquidTagSpec | undefined {
    const spec = this.specs.get(name);
    if (spec) return spec;
    if (this.integrationBlocks && /^@[\w.-]+\/[\w.-]+$/.test(name)) {
      return { name, end: 'optional', plugin: 'integration-block' };
    }
    return undefined;
  }

  /** Whether a tag name (possibly `endX`) is a known tag. */
  isKnown(rawName: string): boolean {
    if (this.get(rawName)) return true;
    if (rawName.startsWith('end') && rawName.length > 3) {
      const spec = this.get(rawName.slice(3));
      return spec !== undefined && spec.end !== 'none';
    }
    return false;
  }

  referenceAttributes(node: LiquidBlock): Array<string | null> {
    return this.get(node.name)?.referenceAttributes ?? [];
  }
}
