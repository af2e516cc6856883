import type { RouteOptions } from 'fastify';
import type { ApiDeps } from './deps.js';
import type { RouteEntry } from './reference.js';
import { buildServer } from './server.js';

/** Every route the API registers, with its request schema (HEAD and OPTIONS routes left out). */
export async function routeTable(deps: ApiDeps): Promise<RouteEntry[]> {
  const routes: RouteEntry[] = [];
  const onRoute = (route: RouteOptions) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: route.url, schema: route.schema });
  };
  const app = await buildServer(deps, { onRoute });
  await app.close();
  return routes;
}
