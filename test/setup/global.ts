// Vitest global setup. The lead is writing the real one (starts one Temporal dev server and bundles
// the workflows once). Until then it does nothing.
export default async function setup(): Promise<() => Promise<void>> {
  return async () => {};
}
