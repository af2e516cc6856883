/** The value of a settled promise, or its failure thrown (reads started together, their failures taken in order). */
export function settled<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}
