/**
 * Growth (`npm run bench growth`): does a step get slower as a conversation gets long? One conversation runs
 * `steps` agent steps through the README's loop (`prepare` with the output, budget large enough that nothing folds);
 * a bare no-op update is timed beside every step as the load control. Compares steps around 500 with steps around 5,
 * raw and against the control, and records history bytes per step. Writes bench/results/growth.json.
 */
import { ConversationClient } from '../src/client/conversation-client';
import { benchMain } from './temporal/bench-main';
import { latency, sqliteArchive, stepMessages, timed, withBenchWorkers, type Latency } from './temporal/harness';
import { noopUpdate } from './temporal/workflows';

/** Steps in each compared window (steps 1–11, centred on step 6, and the last 11 steps). */
const WINDOW = 11;

export interface GrowthResult {
  steps: number;
  early: { from: number; to: number; step: Latency; bare: Latency };
  late: { from: number; to: number; step: Latency; bare: Latency };
  /** History bytes the conversation wrote per step, early and late, and in total. */
  historyBytesPerStep: { early: number; late: number };
  historyBytes: number;
  contextTokensAtEnd: number;
  folds: number;
  /** Latency of every step, ms (for the plot). */
  perStep: number[];
}

export async function runGrowth(steps: number): Promise<GrowthResult> {
  return withBenchWorkers([sqliteArchive()], async (env, [taskQueue]) => {
    const id = `growth-${process.pid}-${Date.now().toString(36)}`;
    const bare = await env.client.workflow.start('bareUpdateWorkflow', {
      taskQueue: taskQueue!,
      workflowId: `${id}-bare`,
      args: [],
    });
    const conv = new ConversationClient({
      client: env.client,
      conversationId: id,
      taskQueue: taskQueue!,
      settings: { budget: 300_000 },
    });
    const handle = env.client.workflow.getHandle(conv.workflowId);
    // Warm the worker and the server up first: the first steps of a fresh worker are not what step 5 measures.
    const warm = new ConversationClient({ client: env.client, conversationId: `${id}-warm`, taskQueue: taskQueue! });
    for (let i = 0; i < 10; i++) {
      await warm.prepare([stepMessages(i).user]);
      await bare.executeUpdate(noopUpdate, { args: [{ messages: [] }] });
    }
    const historySize = async (): Promise<number> => (await handle.describe()).historySize ?? 0;
    const stepTimes: number[] = [];
    const bareTimes: number[] = [];
    const bytes: number[] = [];
    const lateFrom = steps - WINDOW;
    let tokens = 0;
    let folds = 0;
    for (let i = 0; i < steps; i++) {
      const { user, reply } = stepMessages(i);
      const inWindow = (i >= 1 && i <= WINDOW) || i >= lateFrom;
      const before = inWindow ? await historySize() : 0;
      stepTimes.push(
        await timed(async () => {
          const prepared = await conv.prepare([user], i > 0 ? { output: reply } : {});
          tokens = prepared.tokens;
          if (prepared.fold) folds++;
        })
      );
      if (inWindow) bytes[i] = (await historySize()) - before;
      bareTimes.push(await timed(() => bare.executeUpdate(noopUpdate, { args: [{ messages: [user] }] })));
    }
    const window = (from: number, to: number) => ({
      from,
      to,
      step: latency(stepTimes.slice(from, to)),
      bare: latency(bareTimes.slice(from, to)),
    });
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    return {
      steps,
      early: window(1, WINDOW + 1),
      late: window(lateFrom, steps),
      historyBytesPerStep: {
        // Step 0 starts the workflow: the early window starts at step 1.
        early: mean(bytes.slice(1, WINDOW + 1)),
        late: mean(bytes.slice(lateFrom, steps)),
      },
      historyBytes: await historySize(),
      contextTokensAtEnd: tokens,
      folds,
      perStep: stepTimes,
    };
  });
}

if (require.main === module) {
  benchMain(
    'growth.json',
    () => runGrowth(Number(process.env.BENCH_STEPS ?? 505)),
    ({ perStep, ...summary }) => console.log(JSON.stringify(summary, null, 1), perStep.length)
  );
}
