/**
 * The worker process: loads the configuration, connects to Temporal (the configured cluster, or the embedded dev
 * server it starts or reuses), and polls the task queue until Ctrl-C / SIGTERM, then stops the server it started.
 */
import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import { createActivities } from './activities';
import { ArchiveConfigError, type ConversationArchive } from './archive/archive';
import { openArchive } from './archive/open-archive';
import { connectionOptions } from './config/connection-options';
import { profilesFromConfig } from './config/profiles';
import { dataConverterFromConfig } from './codec/data-converter';
import { conversationDefaultsFromConfig } from './config/conversation-defaults';
import { ConfigError, loadConfig } from './config/load-config';
import type { Config } from './config/schema';
import { ensureDevServer, type DevServerHandle } from './server/dev-server';
import type { SummarizerProfiles } from './summarizers/profiles';

/** Options for {@link runWorker} beyond the configuration file. */
export interface RunWorkerOptions {
  config?: Config;
  /** Called once the worker polls, with the address it connected to. */
  onReady?: (info: { address: string; namespace: string; taskQueue: string; uiUrl: string | null }) => void;
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
    try {
      const worker = await Worker.create({
        connection,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        workflowsPath: require.resolve('./workflows'),
        dataConverter,
        activities: createActivities({
          archive,
          profiles,
          conversationDefaults: conversationDefaultsFromConfig(config),
        }),
        maxCachedWorkflows: config.worker.maxCachedWorkflows,
        maxConcurrentWorkflowTaskExecutions: config.worker.maxConcurrentWorkflowTaskExecutions,
        maxConcurrentActivityTaskExecutions: config.worker.maxConcurrentActivityTaskExecutions,
        maxConcurrentLocalActivityExecutions: config.worker.maxConcurrentLocalActivityExecutions,
        // Heartbeats reach the server within this, so a summarize heartbeat timeout of a few seconds holds.
        maxHeartbeatThrottleInterval: config.worker.heartbeatThrottleMs,
      });
      options.onReady?.({
        address,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        uiUrl: server?.uiUrl ?? null,
      });
      // Worker.run resolves after SIGINT/SIGTERM (the SDK installs the handlers) once in-flight tasks drain.
      await worker.run();
    } finally {
      await connection.close();
    }
  } finally {
    await server?.stop();
  }
}

if (require.main === module) {
  // The SDK logs every bundle build and state change at INFO; the worker prints its own summary lines instead.
  const level = (process.env.LOG_LEVEL ?? 'WARN').toUpperCase();
  const levels: readonly string[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];
  Runtime.install({ logger: new DefaultLogger(levels.includes(level) ? (level as LogLevel) : 'WARN') });
  runWorker({
    onReady: ({ address, namespace, taskQueue, uiUrl }) => {
      console.log(`durable-compaction worker polling task queue '${taskQueue}' on ${address} (namespace ${namespace})`);
      if (uiUrl) console.log(`Temporal Web UI: ${uiUrl}`);
      console.log('Ctrl-C to stop.');
    },
  }).then(
    () => process.exit(0),
    (err: unknown) => {
      // One line naming the problem; the stack only when asked for (LOG_LEVEL=DEBUG or TRACE).
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof ConfigError) console.error(`configuration error: ${message}`);
      else if (err instanceof ArchiveConfigError) console.error(`archive error: ${message}`);
      else {
        console.error(`worker failed to start: ${message}`);
        if (['TRACE', 'DEBUG'].includes(level)) console.error(err);
      }
      process.exit(1);
    }
  );
}
