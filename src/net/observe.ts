/**
 * What the network layer tells observers, on diagnostics channels (node:diagnostics_channel): every refusal of the
 * fetch guard, with its code, and the body bytes a client received. The metrics (src/metrics/) count them without
 * src/net knowing of them; a subscriber runs in the publisher's async context (so it can tell the activity
 * running). Publishing costs nothing when no one subscribes. What happens inside a thread (the OpenAPI spec pool)
 * is published in that thread's own channels.
 */
import diagnosticsChannel from 'node:diagnostics_channel';

export const FETCH_REFUSED_CHANNEL = 'folio:net:fetch-refused';

const channel = diagnosticsChannel.channel(FETCH_REFUSED_CHANNEL);

export interface FetchRefusal {
  code: string;
}

export function publishRefusal(code: string): void {
  if (channel.hasSubscribers) channel.publish({ code } satisfies FetchRefusal);
}

export const FETCH_BYTES_CHANNEL = 'folio:net:bytes-received';

const bytesChannel = diagnosticsChannel.channel(FETCH_BYTES_CHANNEL);

/** Body bytes received by a client of the guarded fetch (the git HTTP client). */
export function publishBytesReceived(bytes: number): void {
  if (bytesChannel.hasSubscribers) bytesChannel.publish(bytes);
}
