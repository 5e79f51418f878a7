import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivities, type ActivityDeps } from '../../src/activities';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { ConversationClient, type ConversationClientOptions } from '../../src/client/conversation-client';
import type { RunLimits, SettingsPatch } from '../../src/contract/settings';
import { withWorker } from './temporal';

/** A worker with the real activities and a fresh SQLite archive, plus a way to open conversations on it. */
export interface ConversationHarness {
  env: TestWorkflowEnvironment;
  taskQueue: string;
  /** Keyed by workflow id: `conversationWorkflowId(conversationId)`. */
  archive: SqliteArchive;
  /** The data folder: the archive is `<dataDir>/archive.sqlite`, as the worker keeps it. */
  dataDir: string;
  open(conversationId: string, settings?: SettingsPatch, limits?: Partial<RunLimits>): ConversationClient;
}

let conversations = 0;

/** @returns a conversation id unique to this test process. */
export function uniqueConversationId(label: string): string {
  return `${label}-${process.pid}-${++conversations}-${Date.now().toString(36)}`;
}

/**
 * A client of one conversation on `taskQueue`, the way every test opens one.
 * @param options the client's other options (settings, limits, deadlines, archive)
 * @returns the client; the conversation starts with its first call
 */
export function conversationClient(
  client: Client,
  taskQueue: string,
  conversationId: string,
  options: Omit<Partial<ConversationClientOptions>, 'client' | 'taskQueue' | 'conversationId'> = {}
): ConversationClient {
  return new ConversationClient({ client, conversationId, taskQueue, ...options });
}

/** Runs `fn` with a worker polling a fresh task queue on the shared dev server. */
export async function withConversationWorker<T>(
  fn: (h: ConversationHarness) => Promise<T>,
  deps: Partial<ActivityDeps> = {}
): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dc-data-'));
  const archive = SqliteArchive.open({ path: join(dataDir, 'archive.sqlite') });
  try {
    return await runWith(archive, dataDir, fn, deps);
  } finally {
    await archive.close();
  }
}

function runWith<T>(
  archive: SqliteArchive,
  dataDir: string,
  fn: (h: ConversationHarness) => Promise<T>,
  deps: Partial<ActivityDeps>
): Promise<T> {
  return withWorker({ activities: createActivities({ archive, ...deps }) }, ({ env, taskQueue }) =>
    fn({
      env,
      taskQueue,
      archive,
      dataDir,
      open: (conversationId, settings, limits) =>
        conversationClient(env.client, taskQueue, conversationId, {
          ...(settings ? { settings } : {}),
          ...(limits ? { limits } : {}),
        }),
    })
  );
}
