import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { processSpec } from '../../src/openapi/process.js';
import { corpusDir } from '../../src/project-root.js';

/**
 * Every JSON specification of a real GitBook repository (aimlapi+api-docs), processed as a text source.
 * What each must give is decided from the document itself, not from its name: a document whose local
 * `$ref`s all resolve must bundle and validate; one with a `$ref` to a missing target must be PARSE_ERROR,
 * located at the reference and naming the missing target.
 */
const corpus = path.join(corpusDir(), 'aimlapi+api-docs');

function jsonFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...jsonFiles(full));
    else if (name.endsWith('.json')) out.push(path.relative(corpus, full));
  }
  return out.sort();
}

/** Every `$ref` of a document with the JSON pointer of the object that holds it. */
function refsOf(value: unknown, at = '#', out: Array<{ at: string; ref: string }> = []): Array<{ at: string; ref: string }> {
  if (Array.isArray(value)) value.forEach((v, i) => refsOf(v, `${at}/${i}`, out));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') out.push({ at, ref: v });
      else refsOf(v, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
    }
  }
  return out;
}

/** Whether a local reference (`#/a/b`) points at something in the document. */
function resolves(doc: unknown, ref: string): boolean {
  let current = doc;
  for (const raw of ref
    .slice(2)
    .split('/')
    .filter((p) => p !== '')) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!current || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, part)) return false;
    current = (current as Record<string, unknown>)[part];
  }
  return true;
}

const files = jsonFiles(corpus);
const cases = files.map((file) => {
  const text = readFileSync(path.join(corpus, file), 'utf8');
  const doc = JSON.parse(text) as Record<string, unknown>;
  const missing = refsOf(doc).filter((r) => r.ref.startsWith('#') && !resolves(doc, r.ref));
  return { file, text, doc, missing };
});

describe('the JSON specs of aimlapi+api-docs as text sources', () => {
  it('are many, and both kinds occur (documents that resolve, and one with a missing $ref target)', () => {
    expect(cases.length).toBeGreaterThan(300);
    expect(cases.filter((c) => c.missing.length > 0).length).toBeGreaterThanOrEqual(1);
    // Text sources carry no location: no document here may depend on another file.
    expect(cases.flatMap((c) => refsOf(c.doc)).filter((r) => !r.ref.startsWith('#'))).toEqual([]);
  });

  it.each(cases.map((c) => [c.file, c] as const))('%s', async (_file, { text, doc, missing }) => {
    const result = await processSpec({ text }, { fetch: { timeoutMs: 5000 } });
    if (missing.length === 0) {
      if (!result.ok) throw new Error(`expected a valid spec, got ${result.code}: ${JSON.stringify(result.errors.slice(0, 3))}`);
      expect(result.filesystem).toEqual({ 'openapi.json': text });
      expect(result.rootPath).toBe('openapi.json');
      expect(result.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(result.info).toMatchObject({ specVersion: doc.openapi, title: (doc.info as { title?: string }).title });
    } else {
      // The observed rule: a missing $ref target is a PARSE_ERROR at the reference, naming the target.
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.code).toBe('PARSE_ERROR');
      expect(result.retryable).toBe(false);
      const first = result.errors[0]!;
      expect(missing.map((m) => m.ref)).toContain(first.message.match(/#\/[^\s"']+/)?.[0]);
      expect(missing.map((m) => m.at)).toContain(first.location);
    }
  });
});
