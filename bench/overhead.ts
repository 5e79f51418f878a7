/**
 * Per-step overhead (`npm run bench overhead`): round trips of `prepare` without a fold against a bare no-op update
 * and the core called in-process, interleaved sample by sample on one dev server so load drifts hit every variant
 * alike. Also what a `prepare` pays for (a no-op local activity, the archive write) and an agent step as two round
 * trips (`record` + `prepare`) against one (`prepare` with the output). Writes bench/results/overhead.json.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { ConversationClient } from '../src/client/conversation-client';
import { conversationWorkflowId, prepareUpdate } from '../src/contract/definitions';
import { InProcessConversation } from './cost/in-process';
import { benchMain } from './temporal/bench-main';
import {
  latency,
  memoryArchive,
  sqliteArchive,
  stepMessages,
  timed,
  withBenchWorkers,
  type Latency,
} from './temporal/harness';
import { noopUpdate } from './temporal/workflows';

export const VARIANTS = {
  bare: 'bare no-op update (baseline)',
  localActivity: 'update awaiting one no-op local activity',
  writeBehind: 'update handing its messages to a sink (archived and counted after the task)',
  prepare: '`prepare`, one message, no fold (SQLite archive file)',
  prepareMemoryArchive: '`prepare`, SQLite archive in memory (upper bound of deferring the write)',
  clientPrepare: '`ConversationClient.prepare` (update-with-start)',
  stepTwoTrips: 'agent step: `record` + `prepare` (two round trips)',
  stepOneTrip: 'agent step: `prepare` with the output (one round trip)',
  core: 'the core in-process (stage, count, SQLite archive in memory, plan)',
} as const;
export type Variant = keyof typeof VARIANTS;

export interface OverheadResult {
  samples: number;
  latency: Record<Variant, Latency>;
}

export async function runOverhead(samples: number, warmup = 20): Promise<OverheadResult> {
  return withBenchWorkers([sqliteArchive(), memoryArchive()], async (env, [fileQueue, memoryQueue]) => {
    const client = env.client;
    const id = `overhead-${process.pid}-${Date.now().toString(36)}`;
    const start = (workflow: string, suffix: string): Promise<WorkflowHandle> =>
      client.workflow.start(workflow, { taskQueue: fileQueue!, workflowId: `${id}-${suffix}`, args: [] });
    const bare = await start('bareUpdateWorkflow', 'bare');
    const localActivity = await start('localActivityWorkflow', 'local');
    const writeBehind = await start('writeBehindWorkflow', 'behind');
    const open = (suffix: string, taskQueue: string): ConversationClient =>
      new ConversationClient({ client, conversationId: `${id}-${suffix}`, taskQueue, settings: { budget: 128_000 } });
    // Raw prepares (a plain update, as the baselines), on conversations the client created.
    const raw = async (suffix: string, taskQueue: string) => {
      await open(suffix, taskQueue).prepare([{ role: 'system', content: 'You are a careful agent.' }]);
      const handle = client.workflow.getHandle(conversationWorkflowId(`${id}-${suffix}`));
      // The client's prepare numbered its append by writer, so the shared clientSeq sequence starts here at 0.
      let seq = 0;
      return (message: unknown) =>
        handle.executeUpdate(prepareUpdate, { args: [{ messages: [message], clientSeq: seq++ }] });
    };
    const prepareFile = await raw('file', fileQueue!);
    const prepareMemory = await raw('memory', memoryQueue!);
    const clientConv = open('client', fileQueue!);
    const twoTrips = open('two', fileQueue!);
    const oneTrip = open('one', fileQueue!);
    const core = new InProcessConversation(`${id}-core`, { budget: 128_000 });
    const runs: Record<Variant, (step: number) => Promise<unknown>> = {
      bare: (i) => bare.executeUpdate(noopUpdate, { args: [{ messages: [stepMessages(i).user] }] }),
      localActivity: (i) => localActivity.executeUpdate(noopUpdate, { args: [{ messages: [stepMessages(i).user] }] }),
      writeBehind: (i) => writeBehind.executeUpdate(noopUpdate, { args: [{ messages: [stepMessages(i).user] }] }),
      prepare: (i) => prepareFile(stepMessages(i).user),
      prepareMemoryArchive: (i) => prepareMemory(stepMessages(i).user),
      clientPrepare: (i) => clientConv.prepare([stepMessages(i).user]),
      stepTwoTrips: async (i) => {
        const { user, reply } = stepMessages(i);
        if (i > 0) await twoTrips.record(reply);
        return twoTrips.prepare([user]);
      },
      stepOneTrip: (i) => {
        const { user, reply } = stepMessages(i);
        return oneTrip.prepare([user], i > 0 ? { output: reply } : {});
      },
      core: (i) => core.prepare([stepMessages(i).user]),
    };
    const names = Object.keys(runs) as Variant[];
    const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<Variant, number[]>;
    for (let i = 0; i < warmup + samples; i++) {
      // Rotate the order each round so no variant always follows the same one.
      for (let k = 0; k < names.length; k++) {
        const name = names[(i + k) % names.length]!;
        const ms = await timed(() => runs[name](i));
        if (i >= warmup) times[name].push(ms);
      }
    }
    return {
      samples,
      latency: Object.fromEntries(names.map((n) => [n, latency(times[n])])) as Record<Variant, Latency>,
    };
  });
}

if (require.main === module) {
  benchMain(
    'overhead.json',
    () => runOverhead(Number(process.env.BENCH_SAMPLES ?? 300)),
    (result) => {
      for (const [name, l] of Object.entries(result.latency)) {
        console.log(name.padEnd(22), l.p50.toFixed(2), l.p95.toFixed(2), l.p99.toFixed(2));
      }
    }
  );
}
