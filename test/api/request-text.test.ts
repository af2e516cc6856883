import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';

/**
 * NUL characters, lone surrogates and invalid UTF-8 anywhere in a request (path, query string, JSON body) are
 * answered 400 `{ error: { code, message } }` by one guard in front of every route, and nothing is stored.
 */
describe('request text: NUL, lone surrogates and invalid UTF-8 answer 400 and store nothing', () => {
  let folio: TestFolio;
  let spaceId: string;

  beforeAll(async () => {
    folio = await sharedFolio();
    const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Clean' });
    expect(created.status).toBe(201);
    spaceId = created.body.id;
  });
  afterAll(async () => {
    await folio?.stop();
  });

  /** A request with a body sent byte for byte (fetch would not send invalid UTF-8 or lone surrogates from a JS string). */
  async function raw(method: string, path: string, body: Uint8Array | string) {
    const res = await fetch(folio.baseUrl + path, { method, headers: { authorization: `Bearer ${folio.token}`, 'content-type': 'application/json' }, body });
    return { status: res.status, body: (await res.json()) as { error?: { code: number; message: string } } };
  }
  function expect400(res: { status: number; body: any }, pattern: RegExp) {
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe(400);
    expect(res.body.error.message).toMatch(pattern);
  }
  const spaceTitles = async () =>
    (await folio.request('GET', `/v1/orgs/${folio.organizationId}/spaces`)).body.items.map((s: { title: string }) => s.title).sort();

  it('a NUL in a space title: POST and PATCH answer 400; no space is created, the title is unchanged', async () => {
    const before = await spaceTitles();
    expect400(await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Bad\u0000title' }), /body\.title holds a NUL character/);
    expect400(await folio.request('PATCH', `/v1/spaces/${spaceId}`, { title: 'Bad\u0000title' }), /body\.title holds a NUL character/);
    expect(await spaceTitles()).toEqual(before);
    expect((await folio.request('GET', `/v1/spaces/${spaceId}`)).body.title).toBe('Clean');
  });

  it('a lone surrogate escaped in JSON and invalid UTF-8 bytes in a JSON body answer 400; nothing is stored', async () => {
    const before = await spaceTitles();
    expect400(await raw('POST', `/v1/orgs/${folio.organizationId}/spaces`, '{"title":"half \\ud800 pair"}'), /lone surrogate \(U\+D800\)/);
    expect400(await raw('PATCH', `/v1/spaces/${spaceId}`, '{"title":"\\udc00"}'), /lone surrogate/);
    const invalid = new Uint8Array([...new TextEncoder().encode('{"title":"caf'), 0xe9, 0xff, 0xfe, ...new TextEncoder().encode('"}')]);
    expect400(await raw('POST', `/v1/orgs/${folio.organizationId}/spaces`, invalid), /not valid UTF-8/);
    expect400(await raw('PATCH', `/v1/spaces/${spaceId}`, invalid), /not valid UTF-8/);
    // A NUL in a member name is refused too; a well-formed surrogate pair is text like any other.
    expect400(await raw('PATCH', `/v1/spaces/${spaceId}`, '{"ti\\u0000tle":"x"}'), /member name/);
    // A text body is held to the same rule.
    const text = await fetch(`${folio.baseUrl}/v1/orgs/${folio.organizationId}/spaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${folio.token}`, 'content-type': 'text/plain' },
      body: new Uint8Array([0x61, 0xff]),
    });
    expect(text.status).toBe(400);
    expect(((await text.json()) as { error: { message: string } }).error.message).toMatch(/not valid UTF-8/);
    expect(await spaceTitles()).toEqual(before);
    expect((await folio.request('GET', `/v1/spaces/${spaceId}`)).body.title).toBe('Clean');
    const emoji = await raw('PATCH', `/v1/spaces/${spaceId}`, '{"title":"Clean \\ud83d\\ude00"}');
    expect(emoji.status).toBe(200);
    expect((await folio.request('GET', `/v1/spaces/${spaceId}`)).body.title).toBe('Clean 😀');
    expect((await folio.request('PATCH', `/v1/spaces/${spaceId}`, { title: 'Clean' })).status).toBe(200);
  });

  it('a NUL in a page title of a change-request edit answers 400; the change request is unchanged', async () => {
    const cr = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'edit' });
    expect(cr.status).toBe(201);
    const content = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`;
    expect400(
      await folio.request('POST', content, { changes: [{ operation: 'insert_page', title: 'Page\u0000one', document: { markdown: '# Page\n' } }] }),
      /body\.changes\[0\]\.title holds a NUL/,
    );
    expect400(
      await folio.request('POST', content, { changes: [{ operation: 'insert_page', document: { markdown: '# Page\u0000\n' } }] }),
      /body\.changes\[0\]\.document\.markdown holds a NUL/,
    );
    expect((await folio.request('GET', `${content}/pages`)).body.pages).toEqual([]);
  });

  it('NUL and invalid UTF-8 in paths and query strings answer 400 (not 500): /v1/spaces/%00, /content/files/%00', async () => {
    expect400(await folio.request('GET', '/v1/spaces/%00'), /request URL holds a NUL character/);
    expect400(await folio.request('PATCH', '/v1/spaces/%00', { title: 'x' }), /NUL character/);
    expect400(await folio.request('GET', `/v1/spaces/${spaceId}/content/files/%00`), /NUL character/);
    expect400(await folio.request('GET', `/v1/spaces/${spaceId}/content/page/a%00b`), /NUL character/);
    expect400(await folio.request('GET', `/v1/spaces/${spaceId}/content/path/%ff%fe`), /not valid UTF-8/);
    expect400(await folio.request('GET', `/v1/spaces/${spaceId}/content/files/%ED%A0%80`), /not valid UTF-8/);
    expect400(await folio.request('GET', `/v1/orgs/${folio.organizationId}/spaces?page=%00`), /NUL character/);
    expect400(await folio.request('GET', `/v1/spaces/${spaceId}/change-requests?status=open%C0`), /not valid UTF-8/);
    // Valid percent-encoded UTF-8 still reaches the route (404: no such file).
    expect((await folio.request('GET', `/v1/spaces/${spaceId}/content/files/caf%C3%A9`)).status).toBe(404);
  });
});
