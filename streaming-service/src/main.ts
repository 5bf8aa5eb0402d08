import { loadConfig } from '../../lib/config.js';
import { buildDeps } from '../../lib/deps.js';
import { setLogLevel, log } from '../../lib/observability/log.js';
import { platformEnvironment } from './environment.js';
import { vendorProviders } from './providers.js';
import { startSessionMetrics } from './metrics.js';
import { createStreamingServer } from './server.js';
import { warmShippedBeds } from '../../lib/media/ambience-beds.js';
import { ecsTaskUrl } from './live/task-address.js';

/**
 * The streaming service as its own process (the Fargate container): `/media-stream` and `GET /health` on
 * STREAMING_PORT. On SIGTERM (a deploy or a scale-in) it stops taking new streams and lets calls in
 * progress end and write their history before exiting.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  setLogLevel(config.LOG_LEVEL);
  const deps = await buildDeps(config);
  // Where the other tasks forward this task's calls' control requests and listeners (docs/live-calls.md).
  const internalUrl =
    config.STREAMING_INTERNAL_URL ??
    (config.ECS_CONTAINER_METADATA_URI_V4 ? await ecsTaskUrl(config.ECS_CONTAINER_METADATA_URI_V4, config.STREAMING_PORT).catch(() => undefined) : undefined);
  if (config.ECS_CONTAINER_METADATA_URI_V4 && !internalUrl) log('warn', 'task address unknown: live control reaches only calls on the task the load balancer picks');
  const server = createStreamingServer({
    internalUrl,
    environment: async () => platformEnvironment(deps, vendorProviders(config)),
    // Behind the ALB: the client is the address it appends to X-Forwarded-For.
    upgradeLimit: { policy: { name: 'media-stream', ...config.RATE_LIMIT_MEDIA_STREAM }, behindProxy: true },
    webRejoinGraceMs: config.WEB_REJOIN_GRACE_MS,
    chatRejoinGraceMs: config.CHAT_REJOIN_GRACE_MS,
  });
  // The shipped ambience beds are made before the first call can need one (a fraction of a second of CPU,
  // once); the local platform and tests make them on first use instead.
  await warmShippedBeds();
  const { port } = await server.listen(config.STREAMING_PORT);
  log('info', 'streaming service listening', { port });
  // The ActiveSessions line the service scales on (METRICS_MODE=emf on ECS; off elsewhere).
  const stopMetrics = startSessionMetrics({ config, activeSessions: () => server.activeSessions });
  const stop = async () => {
    log('info', 'streaming service stopping', { activeSessions: server.activeSessions });
    // ECS waits up to two minutes (stopTimeout) before killing the task; leave a margin for history writes.
    await server.drain(config.DRAIN_TIMEOUT_MS);
    stopMetrics();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((error: unknown) => {
  log('error', 'streaming service failed to start', { error: String(error) });
  process.exit(1);
});
