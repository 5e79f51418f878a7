import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivities, type ActivityDeps } from '../../src/activities';
import { FileArchive } from '../../src/archive/file-archive';
import { ConversationClient } from '../../src/client/conversation-client';
import type { RunLimits, SettingsPatch } from '../../src/workflows/settings';
import { withWorker } from './temporal';

/** A worker with the real activities and a fresh file archive, plus a way to open conversations on it. */
export interface ConversationHarness {
  env: TestWorkflowEnvironment;
  taskQueue: string;
  archive: FileArchive;
  /** The data folder: the archive lives in `<dataDir>/archive`, as the worker keeps it. */
  dataDir: string;
  open(conversationId: string, settings?: SettingsPatch, limits?: Partial<RunLimits>): ConversationClient;
}

let conversations = 0;

/** @returns a conversation id unique to this test process. */
export function uniqueConversationId(label: string): string {
  return `${label}-${process.pid}-${++conversations}-${Date.now().toString(36)}`;
}

/** Runs `fn` with a worker polling a fresh task queue on the shared dev server. */
export async function withConversationWorker<T>(
  fn: (h: ConversationHarness) => Promise<T>,
  deps: Partial<ActivityDeps> = {}
): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dc-data-'));
  const archive = new FileArchive(join(dataDir, 'archive'));
  return withWorker({ activities: createActivities({ archive, ...deps }) }, ({ env, taskQueue }) =>
    fn({
      env,
      taskQueue,
      archive,
      dataDir,
      open: (conversationId, settings, limits) =>
        new ConversationClient({
          client: env.client,
          conversationId,
          taskQueue,
          ...(settings ? { settings } : {}),
          ...(limits ? { limits } : {}),
        }),
    })
  );
}
