export { FolioMetrics, type PoolStats } from './metrics.js';
export { startMetricsServer, type HealthCheck, type MetricsServer } from './server.js';
