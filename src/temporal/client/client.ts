import { Client, Connection } from '@temporalio/client';

export interface TemporalClientOptions {
  address: string;
  namespace: string;
}

/** A Temporal client for the API and the CLI. */
export async function connectClient(options: TemporalClientOptions): Promise<Client> {
  const connection = await Connection.connect({ address: options.address, connectTimeout: 10_000 });
  return new Client({ connection, namespace: options.namespace });
}

/** The client the API holds; only `src/temporal/` calls it (through the start module). */
export type TemporalClient = Client;

/** A client that connects on its first call (never, for a caller that only registers routes: the API reference). */
export function lazyClient(namespace = 'default'): Client {
  return new Client({ namespace });
}
