export { importTree } from './import-tree.js';
export { DEFAULT_LIMITS } from './context.js';
export { invalidUtf8Offsets } from './invalid-utf8.js';
export { slugify } from '../slug.js';
export { pagePaths } from './result.js';
