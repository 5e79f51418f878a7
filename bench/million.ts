/**
 * A million tokens (`npm run bench million`): the cost of an ordinary agent step (`prepare` with the model's output,
 * no fold) in a conversation holding 900 000 tokens against one holding 10 000, with a bare no-op update as the load
 * control, interleaved sample by sample on one dev server; and what the 900k conversation's state holds (heap, and
 * the JSON it carries through continue-as-new) with and without references (bench/million-state.ts). Budget 1 000 000, trigger 0.95, ~360-token
 * messages (test/support/prose.ts). `BENCH_QUICK=1`: 60 000 tokens instead of 900 000, 5 samples;
 * `BENCH_MILLION_TOKENS` sets the large conversation's size.
 * Writes bench/results/million.json.
 */
import { ConversationClient } from '../src/client/conversation-client';
import { utf8Length } from '../src/contract/bytes';
import { proseMessages } from '../test/support/prose';
import { benchMain } from './temporal/bench-main';
import { latency, sqliteArchive, stepMessages, timed, withBenchWorkers, type Latency } from './temporal/harness';
import { noopUpdate } from './temporal/workflows';
import { stateHeap } from './million-state';

export interface MillionResult {
  samples: number;
  large: { tokens: number; messages: number; messageBytes: number; step: Latency };
  small: { tokens: number; messages: number; step: Latency };
  bare: Latency;
  /** p50 of the 900k step over the 10k step; and each over the bare update. */
  ratio: { largeOverSmall: number; largeOverBare: number; smallOverBare: number };
  continuedAsNew: number;
  /** The large conversation's state in-process (bench/million-state.ts): heap held, and JSON carried at hand-over. */
  state: Record<'withoutReferences' | 'withReferences', { heapBytes: number; carriedBytes: number }>;
}

export async function runMillion(largeTokens: number, samples: number, warmup = 5): Promise<MillionResult> {
  // Before any worker runs, so its allocations do not count. Measured twice, the second kept (the first warms up).
  const measure = async (withReferences: boolean) => {
    await stateHeap(largeTokens, withReferences);
    return stateHeap(largeTokens, withReferences);
  };
  const held = { withoutReferences: await measure(false), withReferences: await measure(true) };
  return withBenchWorkers([sqliteArchive()], async (env, [taskQueue]) => {
    const id = `million-${process.pid}-${Date.now().toString(36)}`;
    const bare = await env.client.workflow.start('bareUpdateWorkflow', {
      taskQueue: taskQueue!,
      workflowId: `${id}-bare`,
      args: [],
    });
    const open = (suffix: string): ConversationClient =>
      new ConversationClient({
        client: env.client,
        conversationId: `${id}-${suffix}`,
        taskQueue: taskQueue!,
        settings: { budget: 1_000_000, triggerRatio: 0.95 },
      });
    const fill = async (conv: ConversationClient, tokens: number, seed: number, batchSize: number) => {
      const message = proseMessages(seed);
      const sent: unknown[] = [];
      let reached = 0;
      while (reached < tokens) {
        const batch = Array.from({ length: batchSize }, (_, i) => message(sent.length + i));
        sent.push(...batch);
        reached = (await conv.prepare(batch)).tokens;
      }
      return { tokens: reached, sent };
    };
    const large = open('large');
    const small = open('small');
    const filled = await fill(large, largeTokens, 1, 50);
    const smallFilled = await fill(small, 10_000, 2, 4);
    const times = { large: [] as number[], small: [] as number[], bare: [] as number[] };
    const runs: Record<keyof typeof times, (i: number) => Promise<unknown>> = {
      large: (i) => large.prepare([stepMessages(i).user], { output: stepMessages(i).reply }),
      small: (i) => small.prepare([stepMessages(i).user], { output: stepMessages(i).reply }),
      bare: (i) => bare.executeUpdate(noopUpdate, { args: [{ messages: [stepMessages(i).user] }] }),
    };
    const names = Object.keys(runs) as (keyof typeof times)[];
    for (let i = 0; i < warmup + samples; i++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(i + k) % names.length]!;
        const ms = await timed(() => runs[name](i));
        if (i >= warmup) times[name].push(ms);
      }
    }
    const state = await large.state();
    const [l, s, b] = [latency(times.large), latency(times.small), latency(times.bare)];
    return {
      samples,
      large: {
        tokens: filled.tokens,
        messages: filled.sent.length,
        messageBytes: utf8Length(JSON.stringify(filled.sent)),
        step: l,
      },
      small: { tokens: smallFilled.tokens, messages: smallFilled.sent.length, step: s },
      bare: b,
      ratio: { largeOverSmall: l.p50 / s.p50, largeOverBare: l.p50 / b.p50, smallOverBare: s.p50 / b.p50 },
      continuedAsNew: state.continuedAsNew,
      state: held,
    };
  });
}

if (require.main === module) {
  const quick = process.env.BENCH_QUICK === '1';
  benchMain(
    'million.json',
    () =>
      runMillion(
        Number(process.env.BENCH_MILLION_TOKENS ?? (quick ? 60_000 : 900_000)),
        Number(process.env.BENCH_SAMPLES ?? (quick ? 5 : 40))
      ),
    (r) => {
      const ms = (l: Latency) => `p50 ${l.p50.toFixed(1)} / p95 ${l.p95.toFixed(1)} ms`;
      console.log(`900k step ${ms(r.large.step)}; 10k step ${ms(r.small.step)}; bare ${ms(r.bare)}`);
      console.log(`ratios: ${JSON.stringify(r.ratio)}; messages ${r.large.messageBytes} B`);
      console.log(`state: ${JSON.stringify(r.state)}`);
    }
  );
}
