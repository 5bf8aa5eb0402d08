/**
 * The names the streaming service's active-sessions metric is written under and the CDK stack scales on
 * (streaming-service/src/metrics.ts writes it; lib/infra/constructs/streaming-service.ts reads it): one
 * module both import, so they cannot drift apart.
 */

/** The metric name. */
export const ACTIVE_SESSIONS_METRIC = 'ActiveSessions';
/** The dimension naming the deployment (METRICS_SERVICE), so stages sharing an account scale apart. */
export const SERVICE_DIMENSION = 'Service';
