/**
 * The worker process: loads the configuration, connects to Temporal (the configured cluster, or the embedded dev
 * server it starts or reuses), and polls the task queue until Ctrl-C / SIGTERM, then stops the server it started.
 */
import { NativeConnection, Runtime } from '@temporalio/worker';
import { createActivities } from './activities';
import { ArchiveConfigError, type ConversationArchive } from './archive/archive';
import { openArchive } from './archive/open-archive';
import { connectionOptions } from './config/connection-options';
import { profilesFromConfig } from './config/profiles';
import { providerCountsFromConfig } from './config/provider-counts';
import { dataConverterFromConfig } from './codec/data-converter';
import { conversationDefaultsFromConfig } from './config/conversation-defaults';
import { ConfigError, loadConfig } from './config/load-config';
import type { Config } from './config/schema';
import { StructuredLogger, type ConfiguredLogLevel } from './logging/json-logger';
import { ConversationMetrics } from './metrics/conversation-metrics';
import { serveMetrics, type MetricsServer } from './metrics/server';
import { ensureDevServer, type DevServerHandle } from './server/dev-server';
import { createConversationWorker } from './server/conversation-worker';
import type { SummarizerProfiles } from './summarizers/profiles';
import { ensureSearchAttributes, type SearchAttributesStatus } from './visibility/register';
import { startRetentionTimer, type RetentionTimer } from './server/retention-sweep';

/** Options for {@link runWorker} beyond the configuration file. */
export interface RunWorkerOptions {
  config?: Config;
  /** Called once the worker polls, with the address it connected to. */
  onReady?: (info: WorkerReadyInfo) => void;
}

/** What a started worker reports. */
export interface WorkerReadyInfo {
  address: string;
  namespace: string;
  taskQueue: string;
  uiUrl: string | null;
  /** The `dc_*` metrics endpoint, when `metrics.port` is set. */
  metricsUrl: string | null;
  /** The SDK runtime's Prometheus exporter, when `metrics.temporalPort` is set (and the runtime was installed here). */
  temporalMetricsUrl: string | null;
  searchAttributes: SearchAttributesStatus;
}

/**
 * Installs the Temporal runtime for this process: structured logs at the configured level and, when
 * `metrics.temporalPort` is set, the SDK's own Prometheus exporter. Call once, before any connection.
 */
export function installRuntime(config: Config): void {
  const { temporalPort, host } = config.metrics;
  Runtime.install({
    // The loader checked both against the schema's values.
    logger: new StructuredLogger({
      level: config.logging.level as ConfiguredLogLevel,
      format: config.logging.format as 'json' | 'text',
    }),
    telemetryOptions: {
      // Core's own lines go through the same structured logger instead of straight to the console.
      logging: { filter: { core: config.logging.level === 'debug' ? 'DEBUG' : 'WARN', other: 'ERROR' }, forward: {} },
      ...(temporalPort > 0 ? { metrics: { prometheus: { bindAddress: `${host}:${temporalPort}` } } } : {}),
    },
  });
}

/**
 * Runs the worker until a shutdown signal.
 * @throws ConfigError on bad configuration; ArchiveConfigError when the archive cannot be opened (wrong URL or
 *   credentials, unwritable path); DevServerError when the embedded server cannot start.
 */
export async function runWorker(options: RunWorkerOptions = {}): Promise<void> {
  const config = options.config ?? loadConfig();
  const profiles = profilesFromConfig(config);
  // First, so a wrong database URL stops the worker before anything else starts; also applies schema migrations.
  const archive = await openArchive(config);
  try {
    await runWithArchive(config, archive, profiles, options);
  } finally {
    await archive.close();
  }
}

async function runWithArchive(
  config: Config,
  archive: ConversationArchive,
  profiles: SummarizerProfiles,
  options: RunWorkerOptions
): Promise<void> {
  const dataConverter = dataConverterFromConfig(config);
  let server: DevServerHandle | undefined;
  if (config.temporal.address === '') {
    server = await ensureDevServer({
      cliPath: config.devServer.cliPath,
      ip: config.devServer.ip,
      port: config.devServer.port,
      uiPort: config.devServer.uiPort,
      namespace: config.temporal.namespace,
      dataDir: config.devServer.dataDir,
      logLevel: config.devServer.logLevel,
      ...(config.codec.encrypt
        ? { uiCodecEndpoint: `http://${config.codec.serverIp}:${config.codec.serverPort}` }
        : {}),
    });
  }
  try {
    const address = server?.address ?? config.temporal.address;
    const connection = await NativeConnection.connect(connectionOptions(config, address));
    let metricsServer: MetricsServer | undefined;
    let retention: RetentionTimer | undefined;
    try {
      const searchAttributes = await ensureSearchAttributes(connection, config.temporal.namespace);
      const metrics = config.metrics.port > 0 ? new ConversationMetrics() : undefined;
      if (metrics) metricsServer = await serveMetrics(metrics.registry, config.metrics.host, config.metrics.port);
      const providerCounts = providerCountsFromConfig(config);
      const worker = await createConversationWorker({
        connection,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        dataConverter,
        activities: createActivities({
          archive,
          profiles,
          conversationDefaults: conversationDefaultsFromConfig(config),
          ...(metrics ? { metrics } : {}),
          ...(providerCounts ? { providerCounts } : {}),
        }),
        tuning: config.worker,
        ...(metrics ? { metrics } : {}),
      });
      retention = startRetention(config, archive, connection);
      const { temporalPort, host } = config.metrics;
      options.onReady?.({
        address,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        uiUrl: server?.uiUrl ?? null,
        metricsUrl: metricsServer?.url ?? null,
        temporalMetricsUrl: temporalPort > 0 ? `http://${host}:${temporalPort}/metrics` : null,
        searchAttributes,
      });
      // Worker.run resolves after SIGINT/SIGTERM (the SDK installs the handlers) once in-flight tasks drain.
      await worker.run();
    } finally {
      await retention?.stop();
      await metricsServer?.close();
      await connection.close();
    }
  } finally {
    await server?.stop();
  }
}

/**
 * Starts the retention sweep when `retention.closedDays` is set: every `sweepMinutes`, closed conversations past the
 * period are purged; each sweep's counts are logged.
 * @returns the timer, or undefined when retention is off (0 days).
 */
function startRetention(
  config: Config,
  archive: ConversationArchive,
  connection: NativeConnection
): RetentionTimer | undefined {
  const { closedDays, sweepMinutes } = config.retention;
  if (closedDays <= 0) return undefined;
  const logger = Runtime.instance().logger;
  return startRetentionTimer(
    {
      archive,
      service: connection.workflowService,
      namespace: config.temporal.namespace,
      retentionMs: closedDays * 86_400_000,
    },
    sweepMinutes * 60_000,
    (outcome) => {
      if (outcome instanceof Error) logger.warn('retention sweep failed', { error: outcome.message });
      else logger.info('retention sweep', { ...outcome, closedDays });
    }
  );
}

/** How {@link runWorkerProcess} connects: `dev` starts (or reuses) the embedded dev server unless `temporal.address`
 * names a cluster; `worker` is the production worker and refuses to start without `temporal.address`. */
export type WorkerProcessMode = 'worker' | 'dev';

/** Options of {@link runWorkerProcess}. */
export interface WorkerProcessOptions {
  /** @default 'dev' (what `npm start` runs) */
  mode?: WorkerProcessMode;
  /** Where the ready lines and the one-line errors go. @default the process's stdout and stderr */
  io?: { stdout: (line: string) => void; stderr: (line: string) => void };
  /** The configuration file. @default `$DC_CONFIG`, else `temporal.yaml` in the working directory */
  configPath?: string;
}

/**
 * The worker as a process runs it (`durable-compaction worker` / `dev`, `npm start`): loads the configuration,
 * installs the runtime, prints where it polls, runs until SIGINT/SIGTERM.
 * @returns the exit code: 0 after a shutdown signal, 1 when it cannot start (one line on stderr naming the problem;
 *   the stack too with LOG_LEVEL=debug).
 */
export async function runWorkerProcess(options: WorkerProcessOptions = {}): Promise<number> {
  const mode = options.mode ?? 'dev';
  const io = options.io ?? { stdout: (s) => console.log(s), stderr: (s) => console.error(s) };
  try {
    const config = options.configPath === undefined ? loadConfig() : loadConfig(options.configPath);
    if (mode === 'worker' && config.temporal.address === '')
      throw new ConfigError(
        "temporal.address is empty: set it (or TEMPORAL_ADDRESS) to the cluster's address, or run 'durable-compaction dev' for a local dev server"
      );
    installRuntime(config);
    await runWorker({
      config,
      onReady: ({ address, namespace, taskQueue, uiUrl, metricsUrl, temporalMetricsUrl, searchAttributes }) => {
        io.stdout(`durable-compaction worker polling task queue '${taskQueue}' on ${address} (namespace ${namespace})`);
        if (uiUrl) io.stdout(`Temporal Web UI: ${uiUrl}`);
        if (metricsUrl) io.stdout(`Metrics: ${metricsUrl}`);
        if (temporalMetricsUrl) io.stdout(`Temporal SDK metrics: ${temporalMetricsUrl}`);
        if (searchAttributes.added.length > 0)
          io.stdout(`Registered search attributes: ${searchAttributes.added.join(', ')}`);
        if (searchAttributes.hint) io.stderr(`warning: ${searchAttributes.hint}`);
        if (mode === 'dev')
          io.stdout(
            "Next: 'npm run demo' in another terminal drives a real session through a conversation. Ctrl-C to stop."
          );
      },
    });
    return 0;
  } catch (err) {
    // One line naming the problem; the stack only when asked for (LOG_LEVEL=debug).
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof ConfigError) io.stderr(`configuration error: ${message}`);
    else if (err instanceof ArchiveConfigError) io.stderr(`archive error: ${message}`);
    else {
      io.stderr(`worker failed to start: ${message}`);
      if (process.env.LOG_LEVEL?.toLowerCase() === 'debug')
        io.stderr(err instanceof Error ? (err.stack ?? message) : message);
    }
    return 1;
  }
}

if (require.main === module) {
  void runWorkerProcess().then((code) => process.exit(code));
}
