/** Whether the repository-relative `path` is the directory `dir` or inside it (`''` is the repository root). */
export function isWithin(path: string, dir: string): boolean {
  return dir === '' || path === dir || path.startsWith(`${dir}/`);
}
