/**
 * One caller's signal shared by many waits: `abortRelay(signal)` is a signal that aborts with `signal` (same reason),
 * made once per signal, so `signal` gets one listener however many requests, waits or parse tasks listen for it.
 * The relay takes any number of listeners (Node warns past 10 on a signal): each of them is removed when its request,
 * wait or task ends, so their number is bounded by the work in flight (a website import at WEBIMPORT_CONCURRENCY 64
 * has up to 64 requests and as many conversions waiting on one activity's signal), not a leak.
 */
import { setMaxListeners } from 'node:events';

const relays = new WeakMap<AbortSignal, AbortSignal>();

export function abortRelay(signal: AbortSignal): AbortSignal {
  const known = relays.get(signal);
  if (known) return known;
  const relay = new AbortController();
  setMaxListeners(0, relay.signal);
  if (signal.aborted) relay.abort(signal.reason);
  else signal.addEventListener('abort', () => relay.abort(signal.reason), { once: true });
  relays.set(signal, relay.signal);
  return relay.signal;
}
