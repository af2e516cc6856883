/** Builds absolute API and app addresses for the `urls` members of API objects. */
export interface UrlBuilder {
  api(path: string): string;
  app(path: string): string;
}

export function urlBuilder(baseUrl: string): UrlBuilder {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    api: (p) => `${base}/v1${p.startsWith('/') ? p : `/${p}`}`,
    app: (p) => `${base}/app${p.startsWith('/') ? p : `/${p}`}`,
  };
}

export function iso(value: Date | string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
