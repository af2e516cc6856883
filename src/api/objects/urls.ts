/** Builds absolute API and app addresses for the `urls` members of API objects. */
export interface UrlBuilder {
  api(path: string): string;
  app(path: string): string;
}

/** `baseUrl` may be a function, read on every call (a server listening on port 0 learns its port late). */
export function urlBuilder(baseUrl: string | (() => string)): UrlBuilder {
  const base = () => (typeof baseUrl === 'function' ? baseUrl() : baseUrl).replace(/\/+$/, '');
  return {
    api: (p) => `${base()}/v1${p.startsWith('/') ? p : `/${p}`}`,
    app: (p) => `${base()}/app${p.startsWith('/') ? p : `/${p}`}`,
  };
}

/** The address a server listens on (for `urls` when no public base URL is configured). */
export function listeningBase(server: { address(): unknown }, fallback: { host: string; port: number }): string {
  const address = server.address() as { address: string; port: number; family?: string } | string | null;
  if (address && typeof address === 'object' && address.port) {
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host === '0.0.0.0' || host === '[::]' ? fallback.host : host}:${address.port}`;
  }
  return `http://${fallback.host}:${fallback.port}`;
}

export function iso(value: Date | string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
