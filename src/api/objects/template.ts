import type { TemplateEntry } from '../../templates/catalog.js';
import type { UrlBuilder } from './urls.js';

/**
 * The official `SpaceTemplate` of a template of the organization's catalog. The preview image is an SVG card Folio
 * draws from the template (`…/preview.svg?theme=light|dark`), the preview URL its outline as markdown.
 */
export function spaceTemplateObject(t: TemplateEntry, organizationId: string, urls: UrlBuilder, specUrl?: string) {
  const base = `/orgs/${encodeURIComponent(organizationId)}/templates/${encodeURIComponent(t.id)}`;
  const out: Record<string, unknown> = {
    id: t.id,
    contentId: t.space ? t.space.id : `template:${t.id}`,
    title: t.title,
    subtitle: t.subtitle,
    emoji: t.emoji,
    features: t.features,
    previewImage: { light: urls.api(`${base}/preview.svg?theme=light`), dark: urls.api(`${base}/preview.svg?theme=dark`) },
    urls: { preview: urls.api(`${base}/preview`) },
  };
  const spec = t.manifest?.openAPISpec;
  if (spec) out.openAPISpec = { slug: spec.slug, sourceURL: spec.sourceURL ?? specUrl ?? urls.api(`${base}/files/${spec.file}`) };
  return out;
}
