/**
 * Runs `stop` once on SIGINT/SIGTERM; a second signal exits at once. `supervised` (the configuration's
 * FOLIO_SUPERVISED, set by `folio start` for its children): also when stdin closes.
 */
export function onShutdown(stop: (signal: NodeJS.Signals) => Promise<void>, options: { supervised: boolean }): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.exit(130);
    }
    stopping = true;
    stop(signal).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  // Under `folio start`, stdin is a pipe from the supervisor: when it closes, the supervisor is gone.
  if (options.supervised) {
    process.stdin.on('end', () => handler('SIGTERM'));
    process.stdin.on('error', () => handler('SIGTERM'));
    process.stdin.resume();
  }
}
