export { exportRevision } from './export-revision.js';
