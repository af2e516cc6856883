/**
 * What keeps the `folio worker` process that `folio start` runs small (issue 17: it peaked at 540-656 MB on the
 * 5,000-page end-to-end benchmark, goal 512).
 *
 * Its node flags (`WORKER_NODE_FLAGS`). The peak was the main thread's heap: after a full garbage collection V8 lets
 * the old generation grow to up to four times what survived it before collecting again, and an import or an export of
 * 5,000 pages makes that much garbage (the heap went from 155 MB to 280 MB during a one-page export).
 * - `--heap-growing-percent=100`: the old generation grows to twice what survived, not up to four times. Without it
 *   the peak was 492-552 MB with the two settings below, with it 405-417 MB. It costs more full collections: at the
 *   activity level a one-page export of 5,000 pages took about a quarter longer (median of ten: 540 ms, 680 ms with
 *   it); a cold import took no longer. End to end the export stayed at 0.8-1.4 s, as before (the model of a revision
 *   is built with less garbage since).
 * - `--max-semi-space-size=4`: a young generation of 8 MB instead of up to 32 (the parse threads already have 8 MB).
 *
 * Its environment (`WORKER_MALLOC_ENV`): `MALLOC_ARENA_MAX=2`, two glibc malloc arenas instead of up to sixteen (eight
 * per core); the parse threads, V8's background threads and the Temporal core each kept one arena's peak (71-77 MB of
 * arenas at the end of the benchmark; with the two flags above, the peak went from 463-473 MB to 405-417 MB). Other C
 * libraries ignore it.
 */
export const WORKER_NODE_FLAGS: readonly string[] = ['--heap-growing-percent=100', '--max-semi-space-size=4'];

export const WORKER_MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
