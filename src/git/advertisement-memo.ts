/**
 * AdvertisementMemo: the ref advertisement (`GET <repo>/info/refs?service=git-upload-pack`, or `git-receive-pack` for
 * a push) one operation already received, handed once to its next request for the same advertisement instead of
 * asking the remote again.
 *
 * An import asks for the remote's ref first (`remoteRefCommit`: is there anything new?) and then fetches, and a fetch
 * starts with the same request: with a memo shared by the two, the import makes the round trips of `git pull` (the
 * advertisement and the pack), not three. An export asks receive-pack for the branch's head first: when the cache
 * already holds that commit it fetches nothing, and its push starts from that same advertisement (the round trips of
 * `git push`). The remote's answer is the one of a moment earlier in the same operation, as between the two requests
 * of any fetch or push (a push whose branch moved in between is refused by the remote, as always).
 *
 * - Only a successful (200) answer is kept, only one that is at most {@link MAX_ADVERTISEMENT_BYTES} long, and only
 *   for a request with the same URL and the same `Authorization` header (a request without credentials is never
 *   answered with what was fetched with them, and the fetch's own authentication still happens as before).
 * - Each kept answer is served once, within {@link MAX_AGE_MS}; a memo lives for one operation, never shared.
 */
export const MAX_ADVERTISEMENT_BYTES = 1024 * 1024;
const MAX_AGE_MS = 60_000;

export interface KeptAdvertisement {
  url: string;
  statusCode: number;
  statusMessage: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

const DISCOVERY = /\/info\/refs\?service=git-(upload|receive)-pack$/;

/** Whether a request asks for a ref advertisement (of upload-pack or receive-pack: the URL names which). */
export function isRefAdvertisement(method: string, url: string): boolean {
  return method === 'GET' && DISCOVERY.test(url);
}

function authorizationOf(headers: Record<string, string> | undefined): string {
  for (const [k, v] of Object.entries(headers ?? {})) if (k.toLowerCase() === 'authorization') return v;
  return '';
}

export class AdvertisementMemo {
  private readonly kept = new Map<string, { at: number; answer: KeptAdvertisement }>();
  /** Advertisements served from the memo (requests saved). */
  served = 0;

  private key(url: string, headers: Record<string, string> | undefined): string {
    return `${url}\n${authorizationOf(headers)}`;
  }

  /** The kept answer to this request, removed from the memo (served once); undefined when there is none. */
  take(url: string, headers: Record<string, string> | undefined): KeptAdvertisement | undefined {
    const key = this.key(url, headers);
    const entry = this.kept.get(key);
    if (!entry) return undefined;
    this.kept.delete(key);
    if (Date.now() - entry.at > MAX_AGE_MS) return undefined;
    this.served++;
    return entry.answer;
  }

  /** Keeps a successful answer to this request (a larger or unsuccessful one is not kept). */
  keep(requestUrl: string, headers: Record<string, string> | undefined, answer: KeptAdvertisement): void {
    if (answer.statusCode !== 200 || answer.body.byteLength > MAX_ADVERTISEMENT_BYTES) return;
    this.kept.set(this.key(requestUrl, headers), { at: Date.now(), answer });
  }
}
