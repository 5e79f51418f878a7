// The production worker factory in its own process, for crash tests: polls TASK_QUEUE on TEMPORAL_ADDRESS with the real activities, the
// archive ARCHIVE_DRIVER names (sqlite at ARCHIVE_PATH, or postgres at DATABASE_URL) and the test profiles (test-chat
// on SUMMARIZER_BASE_URL), until it is killed. Payloads are encrypted as the production worker's are when
// DC_CODEC_ENCRYPT (and the codec keys) are set: the same data-converter factory reads them from the environment.
// MAX_CACHED_WORKFLOWS (optional) sizes the workflow cache (the scale benchmark runs more conversations than fit);
// NOOP_ACTIVITY=1 adds the scale benchmark's `noop` activity (its one-local-activity baseline workflow awaits it) and
// the `benchArchive` sink of its write-behind baseline (archives to the same archive and counts, after the task).
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createActivities } from '../../src/activities';
import { dataConverterFromConfig } from '../../src/codec/data-converter';
import { loadConfig } from '../../src/config/load-config';
import { createConversationWorker } from '../../src/server/conversation-worker';
import { openArchiveFromEnv, requiredEnv } from './archive-from-env';
import { testProfiles } from './profiles';
import { writeBehindSinks } from '../../bench/temporal/write-behind-sinks';

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const config = loadConfig();
  const env = (name: string): string => requiredEnv(name, 'worker-process');
  const archive = await openArchiveFromEnv('worker-process');
  const connection = await NativeConnection.connect({ address: env('TEMPORAL_ADDRESS') });
  const worker = await createConversationWorker({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: env('TASK_QUEUE'),
    dataConverter: dataConverterFromConfig(config),
    // A prebuilt bundle (WORKFLOW_BUNDLE) lets a restarted worker poll within a second instead of bundling again.
    ...(process.env.WORKFLOW_BUNDLE
      ? { workflows: { workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE } } }
      : {}),
    activities: {
      ...createActivities({
        archive,
        profiles: testProfiles(process.env.SUMMARIZER_BASE_URL ?? 'http://127.0.0.1:9/v1'),
        summarize: { heartbeatMs: 500 },
      }),
      ...(process.env.NOOP_ACTIVITY === '1' ? { noop: (): Promise<void> => Promise.resolve() } : {}),
    },
    ...(process.env.NOOP_ACTIVITY === '1' ? { sinks: writeBehindSinks(archive) } : {}),
    // As the production worker: temporal.yaml `worker:` (or its environment variables).
    tuning: {
      ...config.worker,
      ...(process.env.MAX_CACHED_WORKFLOWS ? { maxCachedWorkflows: Number(process.env.MAX_CACHED_WORKFLOWS) } : {}),
    },
  });
  process.stdout.write('worker ready\n');
  await worker.run();
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
