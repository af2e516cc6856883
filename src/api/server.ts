import { spaceDuplicateRoutes } from './routes/space-duplicate.js';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest, type RouteOptions } from 'fastify';
import { redact } from '../redact.js';
import { installAuth } from './auth.js';
import type { ApiDeps } from './deps.js';
import { installErrorHandler } from './error-handler.js';
import { requestSchema, schemaErrorFormatter } from './schema.js';
import { listeningBase, urlBuilder } from './objects/urls.js';
import { frameworkErrors, installRequestTextGuard } from './request-text.js';
import { healthRoutes } from './routes/health.js';
import { metricsRoutes } from './routes/metrics.js';
import { FolioMetrics } from '../metrics/index.js';
import { orgRoutes } from './routes/orgs.js';
import { spaceRoutes } from './routes/spaces.js';
import { contentRoutes } from './routes/content.js';
import { changeRequestRoutes, mergedFromResolver } from './routes/change-requests.js';
import { gitRoutes } from './routes/git.js';
import { openApiRoutes } from './routes/openapi.js';
import { tokenRoutes } from './routes/tokens.js';
import { translationRoutes } from './routes/translations.js';
import { templateRoutes } from './routes/templates.js';
import { searchRoutes } from './routes/search.js';
import { importRoutes } from './routes/imports.js';
import { siteRoutes } from './routes/sites.js';
import { siteSectionRoutes } from './routes/site-sections.js';
import { siteCustomizationRoutes } from './routes/site-customization.js';
import { siteRedirectRoutes } from './routes/site-redirects.js';
import { customHostnameRoutes } from './routes/custom-hostnames.js';
import { urlRoutes } from './routes/urls.js';
import { storageRoutes } from './routes/storage.js';
import { pdfRoutes } from './routes/pdf.js';
import { memberRoutes } from './routes/members.js';
import { inviteRoutes } from './routes/invites.js';
import { teamRoutes } from './routes/teams.js';
import { spacePermissionRoutes } from './routes/permissions.js';
import { samlRoutes } from './routes/saml.js';
import { collectionRoutes } from './routes/collections.js';
import { commentRoutes } from './routes/comments.js';
import { reviewRoutes } from './routes/reviews.js';
import { integrationRoutes } from './routes/integrations.js';
import { integrationDevRoutes } from './routes/integration-dev.js';
import { gitPushRoutes } from './routes/git-push.js';
import { siteServing } from './site-serving.js';
import { previewRoutes } from './routes/previews.js';
import { ParsePool } from '../parse-threads/pool.js';
import { parsePoolOptions } from '../parse-pool/from-config.js';

export type { ApiDeps } from './deps.js';

/**
 * The request as the access log writes it (fastify's own fields), its URL without the secrets it may carry: a
 * signed upload URL's secret (`/storage/uploads/***`), a share link's key (`?share=***`), tokens and signatures in
 * the query (src/redact.ts). Serializers run after the logger's redaction of plain values, so it is done here.
 */
function accessLogRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redact(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Folio's HTTP API: `/healthz`, `/metrics` (Prometheus) and the platform API under `/v1` (bearer tokens). `onRoute` sees every route
 * registered (tests check that each one addressing an organization's object is covered by the tenant tests).
 */
export async function buildServer(given: ApiDeps, options: { onRoute?: (route: RouteOptions) => void } = {}): Promise<FastifyInstance> {
  // Markdown is parsed off the event loop, with budgets: a pathological page never blocks the API.
  const ownPool = given.parsePool ? null : new ParsePool(parsePoolOptions(given.config));
  const ownMetrics = given.metrics ? null : new FolioMetrics({ role: 'api' });
  const deps: ApiDeps = { ...given, ...(ownPool ? { parsePool: ownPool } : {}), ...(ownMetrics ? { metrics: ownMetrics } : {}) };
  const pool = deps.parsePool!;
  deps.metrics!.watchPool('parse', () => pool.stats);
  const app: FastifyInstance = Fastify({
    loggerInstance: deps.logger.child({ component: 'http' }, { serializers: { req: accessLogRequest } }) as unknown as FastifyBaseLogger,
    bodyLimit: 10 * 1024 * 1024,
    frameworkErrors,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: false } },
    schemaErrorFormatter,
  });
  // One schema per route, declared with the route; every object of it closed here, for every route.
  app.addHook('onRoute', (route) => {
    if (route.schema) route.schema = requestSchema(route.schema);
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  if (ownPool) app.addHook('onClose', async () => ownPool.close());
  if (ownMetrics) app.addHook('onClose', async () => ownMetrics.close());
  installErrorHandler(app);
  // Text the store cannot hold (a NUL, invalid UTF-8) is refused before the access check looks anything up.
  installRequestTextGuard(app);
  installAuth(app, deps.store);
  const urls = urlBuilder(() => deps.baseUrl ?? listeningBase(app.server, deps.config));
  // Route modules: one per resource. Each registers its own paths.
  healthRoutes(app, deps);
  metricsRoutes(app, deps.metrics!);
  orgRoutes(app, deps, urls);
  spaceRoutes(app, deps, urls);
  spaceDuplicateRoutes(app, deps, urls);
  contentRoutes(app, deps, urls, { mergedFrom: mergedFromResolver(deps, urls) });
  changeRequestRoutes(app, deps, urls);
  gitRoutes(app, deps);
  openApiRoutes(app, deps, urls);
  tokenRoutes(app, deps);
  translationRoutes(app, deps, urls);
  templateRoutes(app, deps, urls);
  searchRoutes(app, deps, urls);
  importRoutes(app, deps, urls);
  storageRoutes(app, deps, urls);
  pdfRoutes(app, deps, urls);
  siteRoutes(app, deps, urls);
  siteSectionRoutes(app, deps, urls);
  siteCustomizationRoutes(app, deps);
  siteRedirectRoutes(app, deps, urls);
  customHostnameRoutes(app, deps, urls);
  urlRoutes(app, deps, urls);
  memberRoutes(app, deps, urls);
  inviteRoutes(app, deps, urls);
  teamRoutes(app, deps, urls);
  spacePermissionRoutes(app, deps, urls);
  samlRoutes(app, deps, urls);
  collectionRoutes(app, deps, urls);
  commentRoutes(app, deps, urls);
  reviewRoutes(app, deps, urls);
  integrationRoutes(app, deps, urls);
  integrationDevRoutes(app, deps, urls);
  gitPushRoutes(app, deps);
  previewRoutes(app, deps);
  siteServing(app, { store: deps.store, hostnames: deps.config.siteHostnames, publicUrl: deps.baseUrl ?? deps.config.publicUrl });
  await app.ready();
  return app;
}
