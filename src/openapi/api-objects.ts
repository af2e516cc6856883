import { stripCredentials } from '../redact.js';
import type { OpenApiSpecRecord, OpenApiVersionContent, OpenApiVersionRecord } from '../store/index.js';
import { looksLikeJson } from './parse-document.js';

/** What the objects need to build their addresses (the API's UrlBuilder fits). */
export interface OpenApiUrls {
  api(path: string): string;
  app(path: string): string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);

function specPath(spec: Pick<OpenApiSpecRecord, 'organizationId' | 'slug'>): string {
  return `/orgs/${spec.organizationId}/openapi/${spec.slug}`;
}

/** The platform API's OpenAPISpec object. The source URL is shown without credentials. */
export function openApiSpecObject(spec: OpenApiSpecRecord, urls: OpenApiUrls) {
  return {
    object: 'openapi-spec' as const,
    id: spec.id,
    createdAt: iso(spec.createdAt)!,
    updatedAt: iso(spec.updatedAt)!,
    slug: spec.slug,
    ...(spec.source.kind === 'url' ? { sourceURL: stripCredentials(spec.source.url) } : {}),
    processingState: spec.processingState,
    visibility: spec.visibility,
    ...(spec.lastVersionId ? { lastVersion: spec.lastVersionId } : {}),
    ...(spec.lastProcessedAt ? { lastProcessedAt: iso(spec.lastProcessedAt) } : {}),
    ...(spec.lastProcessErrorCode ? { lastProcessErrorCode: spec.lastProcessErrorCode } : {}),
    lastProcessedErrors: spec.lastProcessedErrors.map((e) => ({ location: e.location, message: e.message })),
    lastProcessedErrorCount: spec.lastProcessedErrorCount,
    permissions: { view: true, edit: true },
    urls: {
      location: urls.api(specPath(spec)),
      app: urls.app(`/o/${spec.organizationId}/openapi/${spec.slug}`),
      ...(spec.visibility === 'public' ? { published: urls.api(`${specPath(spec)}/versions/latest/content/raw`) } : {}),
    },
  };
}

function versionPath(spec: OpenApiSpecRecord, version: OpenApiVersionRecord): string {
  return `${specPath(spec)}/versions/${version.id}`;
}

/** The OpenAPISpecVersion object: `url` is where the specification is accessible (its source, or its raw content here). */
export function openApiVersionObject(spec: OpenApiSpecRecord, version: OpenApiVersionRecord, urls: OpenApiUrls) {
  return {
    object: 'openapi-spec-version' as const,
    id: version.id,
    createdAt: iso(version.createdAt),
    url: version.sourceUrl ?? urls.api(`${versionPath(spec, version)}/content/raw`),
    urls: { location: urls.api(versionPath(spec, version)) },
  };
}

/** `{ filesystem, url }` (plus `urls` as in the official spec, and the root document's path). */
export function openApiContentObject(spec: OpenApiSpecRecord, version: OpenApiVersionRecord, content: OpenApiVersionContent, urls: OpenApiUrls) {
  const source = version.sourceUrl ?? urls.api(`${versionPath(spec, version)}/content/raw`);
  return {
    filesystem: content.filesystem,
    rootPath: content.rootPath,
    url: source,
    urls: { source, public: spec.visibility === 'public' ? source : null },
  };
}

/** The root document as submitted or fetched. */
export function openApiRawContentObject(content: OpenApiVersionContent) {
  const text = content.filesystem[content.rootPath] ?? '';
  return { text, format: looksLikeJson(text) ? ('json' as const) : ('yaml' as const) };
}
