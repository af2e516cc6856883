/**
 * The contract tests validate every success body against the official spec as written, with exactly two
 * deviations (test/helpers/openapi-contract.ts, `deviations`). Each is proved necessary here, on the spec itself:
 * the construct as written rejects every correct body, so no implementation could satisfy it. And each deviation
 * is shown to stay strict: what the spec evidently means is still enforced.
 */
import { describe, expect, it } from 'vitest';
import { layoutOptions } from '../../src/api/objects/revision.js';
import { assertSchema, specSchemas, strictSchemaValidator } from '../helpers/openapi-contract.js';

const listedPage = {
  id: 'p1',
  title: 'Intro',
  kind: 'sheet',
  type: 'document',
  slug: 'intro',
  path: 'intro',
  urls: { app: 'https://app.example.com/s/space/intro' },
  layout: layoutOptions({}),
  tags: [],
  pages: [],
  documentId: 'doc1',
};

describe('deviation 1: Document’s Empty branch', () => {
  it('is unsatisfiable by any page object (as written): RevisionPageBase requires `id`, Empty allows no member at all', () => {
    const schemas = specSchemas();
    const empty = (schemas.Document!.oneOf as Array<Record<string, unknown>>).find((b) => b.title === 'Empty')!;
    expect(empty).toMatchObject({ additionalProperties: false, properties: {} });
    expect(empty.patternProperties).toBeUndefined();
    expect(schemas.RevisionPageBase!.required).toContain('id');
    const allOf = (schemas.RevisionPageDocument!.allOf as Array<{ $ref?: string }>).map((s) => s.$ref);
    expect(allOf).toEqual(expect.arrayContaining(['#/components/schemas/RevisionPageBase', '#/components/schemas/Document']));
    // Hence every valid document page carries `markdown` or `document`: a page listed without its content (as
    // GitBook's own listings give it) can never validate, whatever else it holds.
    const strict = strictSchemaValidator('RevisionPageDocument');
    expect(strict(listedPage)).toBe(false);
    expect(strict({ ...listedPage, markdown: '# Intro\n' })).toBe(true);
    const emptyOnly = strictSchemaValidator('Document');
    expect(emptyOnly({})).toBe(true);
    expect(emptyOnly({ id: 'p1' })).toBe(false);
  });

  it('as checked: exactly one of markdown, document or neither, each with its documented shape', () => {
    expect(() => assertSchema('RevisionPageDocument', listedPage)).not.toThrow();
    expect(() => assertSchema('RevisionPageDocument', { ...listedPage, markdown: '# Intro\n' })).not.toThrow();
    expect(() => assertSchema('RevisionPageDocument', { ...listedPage, markdown: 42 })).toThrow();
    expect(() => assertSchema('RevisionPageDocument', { ...listedPage, document: 'not a document' })).toThrow();
    expect(() =>
      assertSchema('RevisionPageDocument', { ...listedPage, markdown: '# Intro\n', document: { object: 'document', data: {}, nodes: [] } }),
    ).toThrow();
    // The rest of the page is as strict as written.
    expect(() => assertSchema('RevisionPageDocument', { ...listedPage, tags: undefined })).toThrow();
  });
});

describe('deviation 2: RevisionSemanticChangePageEdited.attributes', () => {
  const change = (type: string, attributes: Record<string, unknown>) => ({
    type: 'page_edited',
    page: { id: 'p1', type, title: 'Intro', path: 'intro' },
    attributes,
  });

  it('is unsatisfiable for a document page (as written): the group branch accepts every value the document branch accepts', () => {
    const schemas = specSchemas();
    const documentAttrs = schemas.RevisionPageDocumentChangeAttributes! as { properties: Record<string, unknown>; minProperties?: number };
    const groupAttrs = schemas.RevisionPageGroupChangeAttributes! as { properties: Record<string, unknown>; minProperties?: number };
    for (const s of [documentAttrs, groupAttrs]) {
      expect(s.minProperties).toBe(1);
      for (const k of ['required', 'additionalProperties', 'unevaluatedProperties', 'patternProperties', 'propertyNames', 'not', 'oneOf', 'anyOf', 'allOf'])
        expect(s[k as keyof typeof s], k).toBeUndefined();
    }
    // Each member the group branch constrains is constrained identically by the document branch: the group branch is
    // weaker, so a value valid as a document change is valid as a group change, and the oneOf fails on it.
    for (const [name, schema] of Object.entries(groupAttrs.properties)) expect(documentAttrs.properties[name], name).toEqual(schema);
    const strict = strictSchemaValidator('RevisionSemanticChangePageEdited');
    expect(strict(change('document', { document: { before: 'a', after: 'b' } }))).toBe(false);
    expect(strict(change('document', { title: { before: 'A', after: 'B' } }))).toBe(false);
    expect(strict(change('group', { title: { before: 'A', after: 'B' } }))).toBe(false);
  });

  it('as checked: the attributes of the branch the changed page’s type names, strictly', () => {
    expect(() => assertSchema('RevisionSemanticChangePageEdited', change('document', { document: { before: 'a', after: 'b' } }))).not.toThrow();
    expect(() => assertSchema('RevisionSemanticChangePageEdited', change('group', { title: { before: 'A', after: 'B' } }))).not.toThrow();
    expect(() => assertSchema('RevisionSemanticChangePageEdited', change('document', {}))).toThrow();
    expect(() => assertSchema('RevisionSemanticChangePageEdited', change('document', { title: 'B' }))).toThrow();
    expect(() => assertSchema('RevisionSemanticChangePageEdited', change('link', { target: { before: 5 } }))).toThrow();
    expect(() => assertSchema('RevisionSemanticChangePageEdited', change('group', { slug: { after: 7 } }))).toThrow();
  });
});
