import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/api/server.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { testLogger } from '../helpers/logger.js';

/**
 * Issue 10, item 2: another organization's objects answer exactly as unknown ones (404 with the same body,
 * the requested id aside), so a token learns nothing about which ids exist elsewhere. Every route that loads
 * an organization-owned object is in ROUTES: add new routes there.
 */

/** The ids a route is built from. */
interface Ids {
  org: string;
  space: string;
  revision: string;
  page: string;
  file: string;
  cr: string;
  spec: string;
  version: string;
  token: string;
  translation: string;
  glossaryEntry: string;
  template: string;
  run: string;
  site: string;
  siteSpace: string;
  shareLink: string;
  section: string;
  sectionGroup: string;
  redirect: string;
  hostname: string;
  user: string;
  team: string;
  invite: string;
  samlProvider: string;
  collection: string;
  comment: string;
  reply: string;
  crComment: string;
  crReply: string;
  review: string;
  integration: string;
  installation: string;
  event: string;
}

interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: (ids: Ids) => string;
  body?: unknown;
  /** What the owner of the objects gets (read routes only): proves the path reaches a real object. */
  owner?: number;
  /** Status for both foreign and unknown ids, when not 404 (DELETE of no such object is a 204). */
  status?: number;
}

const OPENAPI = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: { '/pets': { get: { responses: { '200': { description: 'ok' } } } } },
});
const gitBody = { url: 'http://127.0.0.1:9/never.git', ref: 'refs/heads/main' };

const ROUTES: Route[] = [
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/search`, body: { query: 'intro' }, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/spaces`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/spaces`, body: { title: 'Intruder' } },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/spaces/${i.space}`, body: { title: 'Taken over' } },
  { method: 'DELETE', path: (i) => `/v1/spaces/${i.space}`, status: 204 },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/restore` },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/content`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/content/pages`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/preview` },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/preview/intro` },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/content/page/${i.page}`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/content/path/intro`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/content/files`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/content/files/${i.file}`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/revisions/${i.revision}`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/revisions/${i.revision}/pages`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/revisions/${i.revision}/page/${i.page}`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/revisions/${i.revision}/path/intro`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/revisions/${i.revision}/files`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/revisions/${i.revision}/files/${i.file}`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/revisions/${i.revision}/files/${i.file}/download`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/revisions/${i.revision}/changes`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/git/import`, body: gitBody },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/git/export`, body: { ...gitBody, commitMessage: 'x' } },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/git/info` },
  { method: 'PUT', path: (i) => `/v1/spaces/${i.space}/git/push-secret`, body: { secret: 'intruder-secret-1234' } },
  { method: 'DELETE', path: (i) => `/v1/spaces/${i.space}/git/push-secret` },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/change-requests`, body: { subject: 'Intruder' } },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}`, body: { subject: 'Taken over' } },
  {
    method: 'POST',
    path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/content`,
    body: { changes: [{ operation: 'update_page', page: 'pintro', document: { markdown: '# Intro\n\nmine\n' } }] },
  },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/merge` },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/update` },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/pdf` },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/pdf?page=${i.page}&only=true` },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/pdf` },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/content`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/changes`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/content/pages`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/content/page/${i.page}`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/content/path/intro`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/content/files`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/content/files/${i.file}`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/templates`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/templates/${i.template}/preview`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/templates/${i.template}/preview.svg`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/content/template`, body: { id: 'runbook' } },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/tokens`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/tokens`, body: { label: 'intruder' } },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/tokens/${i.token}`, owner: 200 },
  { method: 'DELETE', path: (i) => `/v1/orgs/${i.org}/tokens/${i.token}` },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/openapi`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/openapi`, body: { slug: 'intruder', source: { text: OPENAPI } } },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/openapi/${i.spec}`, owner: 200 },
  { method: 'PUT', path: (i) => `/v1/orgs/${i.org}/openapi/${i.spec}`, body: { source: { text: OPENAPI } } },
  { method: 'PATCH', path: (i) => `/v1/orgs/${i.org}/openapi/${i.spec}`, body: { visibility: 'public' } },
  { method: 'DELETE', path: (i) => `/v1/orgs/${i.org}/openapi/${i.spec}` },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/openapi/${i.spec}/versions`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/openapi/${i.spec}/versions/latest`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/openapi/${i.spec}/versions/latest/content`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/openapi/${i.spec}/versions/latest/content/raw`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/openapi/${i.spec}/versions/${i.version}`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/openapi/${i.spec}/versions/${i.version}/content`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/openapi/${i.spec}/versions/${i.version}/content/raw`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/translations`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/translations`, body: { language: 'es', source: { space: 'their-space', language: 'en' } } },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/translations/${i.translation}`, owner: 200 },
  { method: 'PUT', path: (i) => `/v1/orgs/${i.org}/translations/${i.translation}`, body: { instructions: { object: 'document', data: {}, nodes: [] } } },
  { method: 'DELETE', path: (i) => `/v1/orgs/${i.org}/translations/${i.translation}` },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/translations/${i.translation}/run` },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/translations-glossary`, owner: 200 },
  { method: 'PUT', path: (i) => `/v1/orgs/${i.org}/translations-glossary`, body: { operations: [{ type: 'insert', translations: { en: 'intruder' } }] } },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/translations-glossary/${i.glossaryEntry}`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/search?query=theirs`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/search?query=theirs`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/org/${i.org}/imports`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/org/${i.org}/imports`, body: { source: { type: 'website', url: 'http://127.0.0.1:9/' }, target: { space: 'x' } } },
  { method: 'GET', path: (i) => `/v1/org/${i.org}/imports/${i.run}`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/org/${i.org}/imports/${i.run}/cancel` },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/storage/upload`, body: { file: { name: 'a.md', type: 'text/markdown', size: 1 }, kind: 'import_file' } },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/content/import`, body: { url: 'http://127.0.0.1:9/', source: 'website' } },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/sites`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/sites`, body: { title: 'Intruder site' } },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}`, body: { title: 'Taken over' } },
  { method: 'DELETE', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}` },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/publish` },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/unpublish` },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/published` },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/structure`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/site-spaces`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/site-spaces`, body: { spaceId: 'intruder' } },
  { method: 'PATCH', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/site-spaces/${i.siteSpace}`, body: { path: 'taken' } },
  { method: 'DELETE', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/site-spaces/${i.siteSpace}` },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/share-links`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/share-links`, body: { name: 'intruder' } },
  { method: 'PATCH', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/share-links/${i.shareLink}`, body: { active: false } },
  { method: 'DELETE', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/share-links/${i.shareLink}` },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/sections`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/sections`, body: { spaceId: 'intruder' } },
  { method: 'PATCH', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/sections/${i.section}`, body: { title: 'Taken over' } },
  { method: 'DELETE', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/sections/${i.section}` },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/sections/${i.section}/move`, body: {} },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/section-groups`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/section-groups`, body: { title: 'Intruder' } },
  { method: 'PATCH', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/section-groups/${i.sectionGroup}`, body: { title: 'Taken over' } },
  { method: 'DELETE', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/section-groups/${i.sectionGroup}` },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/section-groups/${i.sectionGroup}/sections`, body: { sectionId: 'intruder' } },
  { method: 'DELETE', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/section-groups/${i.sectionGroup}/sections/${i.section}` },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/section-groups/${i.sectionGroup}/move`, body: {} },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/customization`, owner: 200 },
  { method: 'PUT', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/customization`, body: { title: 'Taken over' } },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/site-spaces/${i.siteSpace}/customization`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/site-spaces/${i.siteSpace}/customization`, body: { title: 'Taken over' } },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/redirects`, owner: 200 },
  {
    method: 'POST',
    path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/redirects`,
    body: { source: '/x', destination: { kind: 'external', url: 'https://example.com/' } },
  },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/redirect?source=/theirs`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/redirects/${i.redirect}`, body: { permanent: true } },
  { method: 'DELETE', path: (i) => `/v1/orgs/${i.org}/sites/${i.site}/redirects/${i.redirect}` },
  { method: 'GET', path: (i) => `/v1/custom-hostnames/${i.hostname}`, owner: 200 },
  { method: 'PUT', path: (i) => `/v1/custom-hostnames/${i.hostname}`, body: { site: 'intruder-site' }, status: 400 },
  { method: 'DELETE', path: (i) => `/v1/custom-hostnames/${i.hostname}`, status: 204 },
  { method: 'GET', path: (i) => `/v1/users/${i.user}`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/users/${i.user}`, body: { displayName: 'Taken over' } },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/members`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/members/${i.user}`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/orgs/${i.org}/members/${i.user}`, body: { role: 'admin' } },
  { method: 'DELETE', path: (i) => `/v1/orgs/${i.org}/members/${i.user}` },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/members/${i.user}/sso` },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/members/${i.user}/spaces`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/members/${i.user}/teams`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/invites`, body: { emails: ['intruder@example.com'] } },
  // Joining needs a personal token: the service token is refused alike for any invite, theirs or none.
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/invites/${i.invite}`, status: 403 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/link-invites`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/link-invites`, body: { role: 'admin' } },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/link-invites/${i.invite}`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/orgs/${i.org}/link-invites/${i.invite}`, body: { role: 'admin' } },
  { method: 'DELETE', path: (i) => `/v1/orgs/${i.org}/link-invites/${i.invite}` },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/teams`, owner: 200 },
  { method: 'PUT', path: (i) => `/v1/orgs/${i.org}/teams`, body: { title: 'Intruders' } },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/teams/${i.team}`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/orgs/${i.org}/teams/${i.team}`, body: { title: 'Taken over' } },
  { method: 'DELETE', path: (i) => `/v1/orgs/${i.org}/teams/${i.team}` },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/teams/${i.team}/members`, owner: 200 },
  { method: 'PUT', path: (i) => `/v1/orgs/${i.org}/teams/${i.team}/members`, body: { remove: ['someone'] } },
  { method: 'PUT', path: (i) => `/v1/orgs/${i.org}/teams/${i.team}/members/${i.user}`, body: {} },
  { method: 'DELETE', path: (i) => `/v1/orgs/${i.org}/teams/${i.team}/members/${i.user}` },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/saml`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/saml`, body: { label: 'Intruder' } },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/saml/${i.samlProvider}`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/orgs/${i.org}/saml/${i.samlProvider}`, body: { label: 'Taken over' } },
  { method: 'DELETE', path: (i) => `/v1/orgs/${i.org}/saml/${i.samlProvider}` },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/sso`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/audit`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/permissions`, body: { role: 'admin', users: ['intruder'] } },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/permissions/users`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/spaces/${i.space}/permissions/users/${i.user}`, body: { role: 'admin' } },
  { method: 'DELETE', path: (i) => `/v1/spaces/${i.space}/permissions/users/${i.user}` },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/permissions/teams`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/spaces/${i.space}/permissions/teams/${i.team}`, body: { role: 'admin' } },
  { method: 'DELETE', path: (i) => `/v1/spaces/${i.space}/permissions/teams/${i.team}` },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/permissions/aggregate`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/move`, body: { parent: null } },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/duplicate`, body: {} },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/collections`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/orgs/${i.org}/collections`, body: { title: 'Intruder' } },
  { method: 'GET', path: (i) => `/v1/collections/${i.collection}`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/collections/${i.collection}`, body: { title: 'Taken over' } },
  { method: 'DELETE', path: (i) => `/v1/collections/${i.collection}`, status: 204 },
  { method: 'GET', path: (i) => `/v1/collections/${i.collection}/spaces`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/collections/${i.collection}/move`, body: { parent: null } },
  { method: 'POST', path: (i) => `/v1/collections/${i.collection}/permissions`, body: { role: 'admin', users: ['intruder'] } },
  { method: 'GET', path: (i) => `/v1/collections/${i.collection}/permissions/users`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/collections/${i.collection}/permissions/users/${i.user}`, body: { role: 'admin' } },
  { method: 'DELETE', path: (i) => `/v1/collections/${i.collection}/permissions/users/${i.user}` },
  { method: 'GET', path: (i) => `/v1/collections/${i.collection}/permissions/teams`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/collections/${i.collection}/permissions/teams/${i.team}`, body: { role: 'admin' } },
  { method: 'DELETE', path: (i) => `/v1/collections/${i.collection}/permissions/teams/${i.team}` },
  { method: 'GET', path: (i) => `/v1/collections/${i.collection}/permissions/aggregate`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/comments`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/comments`, body: { body: { markdown: 'Intruder' } } },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/comments/${i.comment}`, owner: 200 },
  { method: 'PUT', path: (i) => `/v1/spaces/${i.space}/comments/${i.comment}`, body: { resolved: true } },
  { method: 'DELETE', path: (i) => `/v1/spaces/${i.space}/comments/${i.comment}` },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/comments/${i.comment}/replies`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/comments/${i.comment}/replies`, body: { body: { markdown: 'Intruder' } } },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/comments/${i.comment}/replies/${i.reply}`, owner: 200 },
  { method: 'PUT', path: (i) => `/v1/spaces/${i.space}/comments/${i.comment}/replies/${i.reply}`, body: { body: { markdown: 'Taken over' } } },
  { method: 'DELETE', path: (i) => `/v1/spaces/${i.space}/comments/${i.comment}/replies/${i.reply}` },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/comments`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/comments`, body: { body: { markdown: 'Intruder' } } },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/comments/${i.crComment}`, owner: 200 },
  { method: 'PUT', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/comments/${i.crComment}`, body: { resolved: true } },
  { method: 'DELETE', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/comments/${i.crComment}` },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/comments/${i.crComment}/replies`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/comments/${i.crComment}/replies`, body: { body: { markdown: 'Intruder' } } },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/comments/${i.crComment}/replies/${i.crReply}`, owner: 200 },
  {
    method: 'PUT',
    path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/comments/${i.crComment}/replies/${i.crReply}`,
    body: { body: { markdown: 'Taken over' } },
  },
  { method: 'DELETE', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/comments/${i.crComment}/replies/${i.crReply}` },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/reviews`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/reviews`, body: { status: 'approved' } },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/reviews/${i.review}`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/requested-reviewers`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/requested-reviewers`, body: { users: ['intruder'] } },
  { method: 'DELETE', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/requested-reviewers/${i.user}` },
  { method: 'GET', path: (i) => `/v1/spaces/${i.space}/change-requests/${i.cr}/contributors`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/orgs/${i.org}/change-requests`, owner: 200 },
  // Publishing under an organization the caller cannot see: 404 whatever the name (taking over their name while
  // publishing under one's own is refused in test/events/integrations-api.test.ts).
  {
    method: 'POST',
    path: (i) => `/v1/integrations/${i.integration}`,
    body: { organization: 'org-nowhere', title: 'Taken over', description: 'x', scopes: [] },
  },
  { method: 'GET', path: (i) => `/v1/integrations/${i.integration}`, owner: 200 },
  { method: 'DELETE', path: (i) => `/v1/integrations/${i.integration}` },
  { method: 'GET', path: (i) => `/v1/integrations/${i.integration}/installations`, owner: 200 },
  { method: 'POST', path: (i) => `/v1/integrations/${i.integration}/installations`, body: { organization: 'test-org' } },
  { method: 'GET', path: (i) => `/v1/integrations/${i.integration}/installations/${i.installation}`, owner: 200 },
  { method: 'PATCH', path: (i) => `/v1/integrations/${i.integration}/installations/${i.installation}`, body: { status: 'paused' } },
  { method: 'GET', path: (i) => `/v1/integrations/${i.integration}/events`, owner: 200 },
  { method: 'GET', path: (i) => `/v1/integrations/${i.integration}/events/${i.event}`, owner: 200 },
  // Development mode: the owner is refused for its own reason (no webhook secret to sign with), others get 404.
  { method: 'PUT', path: (i) => `/v1/integrations/${i.integration}/dev`, body: { tunnelUrl: 'https://tunnel.example/' }, owner: 400 },
  { method: 'DELETE', path: (i) => `/v1/integrations/${i.integration}/dev` },
];

/** An id of the same shape and length that names nothing. */
const unknownLike = (id: string) => id.replace(/[A-Za-z0-9]/g, (c, n: number) => (n % 2 ? 'z' : 'Q')).replace(/^./, 'u');

describe('another organization’s objects answer 404 like unknown ones', () => {
  let folio: TestFolio;
  let theirs: string;
  let foreign: Ids;
  const ORG = 'org-theirs';

  const as = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    folio = await startFolio();
    await folio.store.orgs.ensure({ id: ORG, title: 'Theirs' });
    const owner = await folio.store.tokens.create(ORG, { label: 'owner' });
    theirs = owner.token;
    const created = await folio.request('POST', `/v1/orgs/${ORG}/spaces`, { title: 'Their space' }, as(theirs));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const space = created.body.id as string;
    const encoder = new TextEncoder();
    const { id: revision } = await folio.store.revisions.create({
      spaceId: space,
      parents: [(await folio.store.spaces.get(space))!.revisionId!],
      type: 'edits',
      pages: [{ id: 'pintro', kind: 'document', title: 'Intro', slug: 'intro', path: 'intro', body: encoder.encode('# Intro\n\nTheirs.\n') }],
      files: [{ id: 'fsecret', name: 'secret.txt', size: 6, contentType: 'text/plain', bytes: encoder.encode('secret') }],
    });
    await folio.store.spaces.setPrimaryRevision(space, revision);
    const cr = await folio.request('POST', `/v1/spaces/${space}/change-requests`, { subject: 'Their draft' }, as(theirs));
    expect(cr.status, JSON.stringify(cr.body)).toBe(201);
    const spec = await folio.request('POST', `/v1/orgs/${ORG}/openapi`, { slug: 'pets', source: { text: OPENAPI } }, as(theirs));
    expect(spec.status, JSON.stringify(spec.body)).toBe(201);
    let version: string | undefined;
    const deadline = Date.now() + 90_000;
    while (!version) {
      const latest = await folio.request('GET', `/v1/orgs/${ORG}/openapi/pets/versions/latest`, undefined, as(theirs));
      if (latest.status === 200) version = latest.body.id as string;
      else if (Date.now() > deadline) throw new Error(`the spec was not processed: ${JSON.stringify(latest.body)}`);
      else await new Promise((r) => setTimeout(r, 250));
    }
    const translation = await folio.request('POST', `/v1/orgs/${ORG}/translations`, { language: 'es', source: { space, language: 'en' } }, as(theirs));
    expect(translation.status, JSON.stringify(translation.body)).toBe(201);
    const glossary = await folio.request(
      'PUT',
      `/v1/orgs/${ORG}/translations-glossary`,
      { operations: [{ type: 'insert', translations: { en: 'Intro', es: 'Introducción' } }] },
      as(theirs),
    );
    expect(glossary.status, JSON.stringify(glossary.body)).toBe(204);
    const entries = await folio.request('GET', `/v1/orgs/${ORG}/translations-glossary`, undefined, as(theirs));
    const run = await folio.store.imports.create({ organizationId: ORG, spaceId: space, source: { type: 'website', url: 'http://127.0.0.1:9/' } });
    const site = await folio.request('POST', `/v1/orgs/${ORG}/sites`, { title: 'Their site', spaces: [space] }, as(theirs));
    expect(site.status, JSON.stringify(site.body)).toBe(201);
    const siteSpaces = await folio.request('GET', `/v1/orgs/${ORG}/sites/${site.body.id}/site-spaces`, undefined, as(theirs));
    const shareLink = await folio.request('POST', `/v1/orgs/${ORG}/sites/${site.body.id}/share-links`, { name: 'theirs' }, as(theirs));
    expect(shareLink.status, JSON.stringify(shareLink.body)).toBe(201);
    const section = await folio.request('POST', `/v1/orgs/${ORG}/sites/${site.body.id}/sections`, { spaceId: space, title: 'Their section' }, as(theirs));
    expect(section.status, JSON.stringify(section.body)).toBe(201);
    const sectionGroup = await folio.request(
      'POST',
      `/v1/orgs/${ORG}/sites/${site.body.id}/section-groups`,
      { title: 'Their group', sections: [section.body.id] },
      as(theirs),
    );
    expect(sectionGroup.status, JSON.stringify(sectionGroup.body)).toBe(201);
    const redirect = await folio.request(
      'POST',
      `/v1/orgs/${ORG}/sites/${site.body.id}/redirects`,
      { source: '/theirs', destination: { kind: 'external', url: 'https://example.com/' } },
      as(theirs),
    );
    expect(redirect.status, JSON.stringify(redirect.body)).toBe(201);
    const hostname = await folio.request('PUT', '/v1/custom-hostnames/docs.theirs.example', { site: site.body.id }, as(theirs));
    expect(hostname.status, JSON.stringify(hostname.body)).toBe(201);
    const user = await folio.store.users.create({ displayName: 'Their member', email: 'member@theirs.test' });
    await folio.store.members.add(ORG, user.id, { role: 'edit' }, { via: 'cli' });
    const team = await folio.request('PUT', `/v1/orgs/${ORG}/teams`, { title: 'Their team', members: [user.id] }, as(theirs));
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    expect((await folio.request('POST', `/v1/spaces/${space}/permissions`, { role: 'edit', teams: [team.body.id], users: [user.id] }, as(theirs))).status).toBe(
      204,
    );
    const invite = await folio.request('POST', `/v1/orgs/${ORG}/link-invites`, { role: 'read' }, as(theirs));
    expect(invite.status, JSON.stringify(invite.body)).toBe(201);
    const saml = await folio.request('POST', `/v1/orgs/${ORG}/saml`, { label: 'Their IdP' }, as(theirs));
    expect(saml.status, JSON.stringify(saml.body)).toBe(201);
    const collection = await folio.request('POST', `/v1/orgs/${ORG}/collections`, { title: 'Their collection' }, as(theirs));
    expect(collection.status, JSON.stringify(collection.body)).toBe(201);
    expect((await folio.request('POST', `/v1/spaces/${space}/move`, { parent: collection.body.id }, as(theirs))).status).toBe(200);
    const thread = async (prefix: string) => {
      const comment = await folio.request('POST', prefix, { body: { markdown: 'Their comment' }, page: 'pintro' }, as(theirs));
      expect(comment.status, JSON.stringify(comment.body)).toBe(200);
      const reply = await folio.request('POST', `${prefix}/${comment.body.id}/replies`, { body: { markdown: 'Their reply' } }, as(theirs));
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return { comment: comment.body.id as string, reply: reply.body.id as string };
    };
    const onSpace = await thread(`/v1/spaces/${space}/comments`);
    const onCr = await thread(`/v1/spaces/${space}/change-requests/${cr.body.id}/comments`);
    const asked = await folio.request('POST', `/v1/spaces/${space}/change-requests/${cr.body.id}/requested-reviewers`, { users: [user.id] }, as(theirs));
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const review = await folio.request('POST', `/v1/spaces/${space}/change-requests/${cr.body.id}/reviews`, { status: 'changes-requested' }, as(theirs));
    expect(review.status, JSON.stringify(review.body)).toBe(201);
    const integration = await folio.request(
      'POST',
      '/v1/integrations/their-hook',
      { organization: ORG, title: 'Their hook', description: 'theirs', scopes: [] },
      as(theirs),
    );
    expect(integration.status, JSON.stringify(integration.body)).toBe(200);
    const installation = await folio.request('POST', '/v1/integrations/their-hook/installations', { organization: ORG }, as(theirs));
    expect(installation.status, JSON.stringify(installation.body)).toBe(201);
    const { id: later } = await folio.store.revisions.create({
      spaceId: space,
      parents: [revision],
      type: 'edits',
      pages: [{ id: 'pintro', kind: 'document', title: 'Intro', slug: 'intro', path: 'intro', body: encoder.encode('# Intro\n\nTheirs.\n') }],
      files: [{ id: 'fsecret', name: 'secret.txt', size: 6, contentType: 'text/plain', bytes: encoder.encode('secret') }],
    });
    await folio.store.spaces.setPrimaryRevision(space, later);
    const [delivery] = await folio.store.integrations.pendingDeliveries(installation.body.id as string, 1);
    // The integration has no webhook: its subscriber fails the delivery too; whichever ends it first.
    await folio.store.integrations.finishDelivery(delivery!.id, 'failed', { level: 'error', message: 'test' });
    foreign = {
      org: ORG,
      space,
      revision,
      page: 'pintro',
      file: 'fsecret',
      cr: cr.body.id as string,
      spec: 'pets',
      version,
      token: owner.id,
      translation: translation.body.id as string,
      glossaryEntry: entries.body.items[0].id as string,
      template: 'runbook',
      run: run.id,
      site: site.body.id as string,
      siteSpace: siteSpaces.body.items[0].id as string,
      shareLink: shareLink.body.id as string,
      section: section.body.id as string,
      sectionGroup: sectionGroup.body.id as string,
      redirect: redirect.body.id as string,
      hostname: 'docs.theirs.example',
      user: user.id,
      team: team.body.id as string,
      invite: invite.body.id as string,
      samlProvider: saml.body.id as string,
      collection: collection.body.id as string,
      comment: onSpace.comment,
      reply: onSpace.reply,
      crComment: onCr.comment,
      crReply: onCr.reply,
      review: review.body.id as string,
      integration: 'their-hook',
      installation: installation.body.id as string,
      event: delivery!.id,
    };
  });
  afterAll(async () => {
    await folio?.stop();
  });

  it('ROUTES covers every registered /v1 route that addresses an object by id', async () => {
    const registered: string[] = [];
    const app = await buildServer(
      { store: folio.store, temporal: folio.client, config: folio.config, logger: testLogger('routes') },
      {
        onRoute: (route) => {
          for (const method of [route.method].flat())
            if (method !== 'HEAD' && route.url.startsWith('/v1/') && /[:*]/.test(route.url))
              registered.push(`${method} ${route.url.replace(/\/\*$/, '/intro')}`);
        },
      },
    );
    await app.close();
    const params: Ids = {
      org: ':organizationId',
      space: ':spaceId',
      revision: ':revisionId',
      page: ':pageId',
      file: ':fileId',
      cr: ':changeRequestId',
      spec: ':specSlug',
      version: ':versionId',
      token: ':tokenId',
      translation: ':translationId',
      glossaryEntry: ':glossaryEntryId',
      template: ':templateId',
      run: ':importRunId',
      site: ':siteId',
      siteSpace: ':siteSpaceId',
      shareLink: ':shareLinkId',
      section: ':siteSectionId',
      sectionGroup: ':siteSectionGroupId',
      redirect: ':siteRedirectId',
      hostname: ':hostname',
      user: ':userId',
      team: ':teamId',
      invite: ':inviteId',
      samlProvider: ':samlProviderId',
      collection: ':collectionId',
      comment: ':commentId',
      reply: ':commentReplyId',
      crComment: ':commentId',
      crReply: ':commentReplyId',
      review: ':reviewId',
      integration: ':integrationName',
      installation: ':installationId',
      event: ':eventId',
    };
    const covered = new Set(ROUTES.map((r) => `${r.method} ${r.path(params).split('?')[0]}`));
    expect(registered.length).toBeGreaterThan(40);
    expect(registered.filter((r) => !covered.has(r))).toEqual([]);
    expect([...covered].filter((r) => !registered.includes(r))).toEqual([]);
  });

  it('every route: the owner reaches the object; another organization gets what an unknown id gets', async () => {
    // Same-length ids of different kinds would all look alike: a user's (a collection's) unknown id ends in its kind, so its 404 names it.
    const unknown = Object.fromEntries(
      Object.entries(foreign).map(([k, v]) => [
        k,
        ['user', 'collection', 'comment', 'reply', 'crComment', 'crReply', 'review'].includes(k)
          ? `${unknownLike(v).slice(0, -4)}${k.slice(0, 4)}`
          : unknownLike(v),
      ]),
    ) as unknown as Ids;
    // The requested ids, by name, so that bodies compare equal when they only echo the id asked for.
    const normalize = (body: unknown, ids: Ids) => {
      let text = JSON.stringify(body ?? null);
      for (const [name, id] of Object.entries(ids).sort((a, b) => b[1].length - a[1].length)) text = text.split(id).join(`<${name}>`);
      return JSON.parse(text) as unknown;
    };
    const failures: string[] = [];
    for (const route of ROUTES) {
      const label = `${route.method} ${route.path({
        org: ':org',
        space: ':space',
        revision: ':revision',
        page: ':page',
        file: ':file',
        cr: ':cr',
        spec: ':spec',
        version: ':version',
        token: ':token',
        translation: ':translation',
        glossaryEntry: ':glossaryEntry',
        template: ':template',
        run: ':run',
        site: ':site',
        siteSpace: ':siteSpace',
        shareLink: ':shareLink',
        section: ':section',
        sectionGroup: ':sectionGroup',
        redirect: ':redirect',
        hostname: ':hostname',
        user: ':user',
        team: ':team',
        invite: ':invite',
        samlProvider: ':samlProvider',
        collection: ':collection',
        comment: ':comment',
        reply: ':reply',
        crComment: ':crComment',
        crReply: ':crReply',
        review: ':review',
        integration: ':integration',
        installation: ':installation',
        event: ':event',
      })}`;
      if (route.owner !== undefined) {
        const own = await folio.request(route.method, route.path(foreign), route.body, as(theirs));
        if (own.status !== route.owner) failures.push(`${label}: the owner got ${own.status} ${JSON.stringify(own.body).slice(0, 200)}`);
      }
      const a = await folio.request(route.method, route.path(foreign), route.body);
      const b = await folio.request(route.method, route.path(unknown), route.body);
      const expected = route.status ?? 404;
      if (a.status !== expected || b.status !== expected) failures.push(`${label}: foreign ${a.status}, unknown ${b.status} (expected ${expected})`);
      else if (JSON.stringify(normalize(a.body, foreign)) !== JSON.stringify(normalize(b.body, unknown)))
        failures.push(`${label}: bodies differ: ${JSON.stringify(a.body)} vs ${JSON.stringify(b.body)}`);
      else if (expected === 404) expect(a.body).toEqual({ error: { code: 404, message: expect.any(String) } });
    }
    expect(failures).toEqual([]);
  });

  it('nothing of the other organization changed', async () => {
    const as2 = as(theirs);
    expect((await folio.request('GET', `/v1/custom-hostnames/${foreign.hostname}`, undefined, as2)).body.target).toEqual({ type: 'site', site: foreign.site });
    const space = await folio.request('GET', `/v1/spaces/${foreign.space}`, undefined, as2);
    expect(space.body).toMatchObject({ id: foreign.space, title: 'Their space' });
    expect((await folio.store.spaces.get(foreign.space))?.deletedAt).toBeNull();
    expect((await folio.request('GET', `/v1/spaces/${foreign.space}/change-requests/${foreign.cr}`, undefined, as2)).body).toMatchObject({
      subject: 'Their draft',
      status: 'open',
    });
    const draft = await folio.request('GET', `/v1/spaces/${foreign.space}/change-requests/${foreign.cr}/content/page/pintro?format=markdown`, undefined, as2);
    expect(draft.body.markdown).toBe('# Intro\n\nTheirs.\n');
    expect((await folio.request('GET', `/v1/orgs/${ORG}/openapi/pets`, undefined, as2)).body).toMatchObject({ visibility: 'private' });
    expect((await folio.request('GET', `/v1/orgs/${ORG}/openapi`, undefined, as2)).body.items).toHaveLength(1);
    expect((await folio.request('GET', `/v1/orgs/${ORG}/translations/${foreign.translation}`, undefined, as2)).body).toMatchObject({
      status: 'pending',
      language: 'es',
    });
    expect(await folio.store.translations.latestRun(foreign.translation)).toBeNull();
    expect((await folio.request('GET', `/v1/orgs/${ORG}/translations-glossary`, undefined, as2)).body.items).toHaveLength(1);
    expect((await folio.request('GET', `/v1/orgs/${ORG}/spaces`, undefined, as2)).body.items).toHaveLength(1);
    expect((await folio.request('GET', `/v1/spaces/${foreign.space}/git/info`, undefined, as2)).status).toBe(404);
    expect((await folio.request('GET', `/v1/orgs/${ORG}/sites/${foreign.site}`, undefined, as2)).body).toMatchObject({ title: 'Their site', published: false });
    expect((await folio.request('GET', `/v1/orgs/${ORG}/sites/${foreign.site}/share-links`, undefined, as2)).body.items).toMatchObject([{ active: true }]);
    const sections = await folio.request('GET', `/v1/orgs/${ORG}/sites/${foreign.site}/sections`, undefined, as2);
    expect(sections.body.items.map((s: { title: string }) => s.title)).toEqual(['Their space', 'Their section']);
    const groups = await folio.request('GET', `/v1/orgs/${ORG}/sites/${foreign.site}/section-groups`, undefined, as2);
    expect(groups.body.items).toMatchObject([{ title: 'Their group', sections: [{ id: foreign.section }] }]);
    expect((await folio.request('GET', `/v1/collections/${foreign.collection}`, undefined, as2)).body).toMatchObject({ title: 'Their collection' });
    expect((await folio.store.spaces.get(foreign.space))?.parent).toBe(foreign.collection);
    for (const [prefix, comment] of [
      [`/v1/spaces/${foreign.space}/comments`, foreign.comment],
      [`/v1/spaces/${foreign.space}/change-requests/${foreign.cr}/comments`, foreign.crComment],
    ] as const) {
      const theirComment = await folio.request('GET', `${prefix}/${comment}`, undefined, as2);
      expect(theirComment.body).toMatchObject({ status: 'open', replies: 1, body: { markdown: 'Their comment' } });
      expect((await folio.request('GET', prefix, undefined, as2)).body.count).toBe(1);
    }
    const reviews = await folio.request('GET', `/v1/spaces/${foreign.space}/change-requests/${foreign.cr}/reviews`, undefined, as2);
    expect(reviews.body.items).toMatchObject([{ id: foreign.review, status: 'changes-requested' }]);
    const asked = await folio.request('GET', `/v1/spaces/${foreign.space}/change-requests/${foreign.cr}/requested-reviewers`, undefined, as2);
    expect(asked.body.items).toMatchObject([{ user: { id: foreign.user } }]);
  });
});
