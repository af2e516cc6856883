export { FolioMetrics, type PoolStats } from './metrics.js';
export { startMetricsServer, type MetricsServer } from './server.js';
