/**
 * A process that fetches a branch into a cache, deepened until it holds a base commit, and SIGKILLs itself in the
 * middle of the first deepen round, once isomorphic-git has written that round's shallow list and refs but not its
 * pack index: a worker killed mid-fetch (interrupted-fetch.test.ts).
 * Args: <cache root> <remote url> <cache id> <base commit>.
 */
import { fetchRef, openCache } from '../../src/git/index.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';

const [root, url, id, baseCommit] = process.argv.slice(2) as [string, string, string, string];
const cache = await openCache({ root, scope: { organizationId: 'org-test', spaceId: 'space-test' }, url, ref: 'main', repoCacheID: id });
let deepening = false;
await fetchRef({
  policy: loopbackPolicy,
  cache,
  url,
  ref: 'main',
  baseCommit,
  onProgress: (p) => {
    if (p.phase === 'Deepening') deepening = true;
    else if (deepening && (p.phase === 'Receiving objects' || p.phase === 'Resolving deltas')) process.kill(process.pid, 'SIGKILL');
  },
});
process.stdout.write('not killed\n');
