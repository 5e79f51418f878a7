/**
 * Workflow-side work of an ordinary step (`npm run bench step-work`): the CPU time the conversation workflow's own
 * code spends on one `prepare` (the update validator, the handler, the UI details, the result as JSON), in-process
 * outside Temporal's sandbox (bench/temporal/outside-sandbox.ts), with the local activities answered at once so only
 * the workflow's work is counted. One conversation of README-loop steps (a user message and the model's reply) is
 * measured at steps 5, 500 and 5 000 (`BENCH_STEP_AT`), the median of `BENCH_STEP_SAMPLES` steps each, by
 * `process.cpuUsage()`: the figure issue 27 asks to be independent of the conversation's length.
 * `BENCH_BEFORE_TREE=<dir>` (a checkout of an earlier commit with this file copied in) measures that tree too,
 * alternating processes, and writes both. Writes bench/results/step-work.json.
 */
import { outsideActivities } from './temporal/outside-sandbox';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AppendInput } from '../src/contract/definitions';
import { defaultSettings, mergeSettings } from '../src/contract/settings';
import { ConversationHandlers } from '../src/workflows/conversation/conversation-handlers';
import { ConversationState } from '../src/workflows/conversation/conversation-state';
import { validateAppend } from '../src/workflows/conversation/handler-validators';
import { resultsDir } from './results-dir';
import { stepMessages } from './temporal/harness';

/** Tokens the answered `ingest` gives each message: 10 000 messages stay far under the 1 000 000 budget. */
const TOKENS_PER_MESSAGE = 50;

/** CPU ms of one step at each measured step number: the median, the minimum and the samples. */
export type StepWork = Record<string, { medianMs: number; minMs: number; samples: number[] }>;

function answerActivities(): void {
  const counts = (messages: unknown[]) => messages.map(() => TOKENS_PER_MESSAGE);
  outsideActivities.current = {
    ingest: (input) => Promise.resolve({ counts: counts(input.messages), clipped: [], fixedTokens: 3 }),
    countTokens: (input) =>
      Promise.resolve({
        counts: counts(input.messages),
        replyPriming: 3,
        toolTokens: 0,
        encoding: 'o200k_base',
        exact: true,
      }),
  };
}

/** Runs one conversation and measures the steps from each of `at` on, `samples` each. */
export async function measureStepWork(at: readonly number[], samples: number): Promise<StepWork> {
  answerActivities();
  const settings = mergeSettings(defaultSettings, { budget: 1_000_000, triggerRatio: 0.95 });
  const state = ConversationState.create('step-work', settings);
  const handlers = new ConversationHandlers(state, state.carried.limits);
  const step = async (i: number): Promise<number> => {
    const { user, reply } = stepMessages(i);
    const input: AppendInput = { messages: i > 0 ? [reply, user] : [user] };
    const started = process.cpuUsage();
    validateAppend(state, input);
    const result = await handlers.prepare(input);
    handlers.publish();
    JSON.stringify(result); // the update result, as the payload converter writes it
    const used = process.cpuUsage(started);
    return (used.user + used.system) / 1000;
  };
  const out: StepWork = {};
  let i = 0;
  for (const from of at) {
    while (i < from) await step(i++);
    const ms: number[] = [];
    for (let k = 0; k < samples; k++) ms.push(await step(i++));
    const sorted = [...ms].sort((a, b) => a - b);
    out[String(from)] = { medianMs: sorted[Math.floor(sorted.length / 2)]!, minMs: sorted[0]!, samples: ms };
  }
  return out;
}

const at = (process.env.BENCH_STEP_AT ?? '5,500,5000').split(',').map(Number);
const samples = Number(process.env.BENCH_STEP_SAMPLES ?? 21);

/** Measures in a child process of `tree` (this file's copy there). */
function child(tree: string): StepWork {
  const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', join(tree, 'bench/step-work.ts'), '--child'], {
    cwd: tree,
    env: process.env,
    encoding: 'utf8',
  });
  return JSON.parse(out) as StepWork;
}

if (require.main === module && process.argv.includes('--child')) {
  void measureStepWork(at, samples).then((r) => process.stdout.write(JSON.stringify(r)));
} else if (require.main === module) {
  const here = resolve(__dirname, '..');
  const before = process.env.BENCH_BEFORE_TREE;
  const rounds = Number(process.env.BENCH_STEP_ROUNDS ?? 2);
  const runs: { before: StepWork[]; after: StepWork[] } = { before: [], after: [] };
  for (let r = 0; r < rounds; r++) {
    if (before) runs.before.push(child(before));
    runs.after.push(child(here));
  }
  // Per step number, the lowest median over the rounds: load from other processes only adds time.
  const best = (list: StepWork[]) =>
    Object.fromEntries(at.map((n) => [n, Math.min(...list.map((w) => w[String(n)]!.medianMs))]));
  const result = {
    at,
    samples,
    rounds,
    tokensPerMessage: TOKENS_PER_MESSAGE,
    medianMs: { ...(before ? { before: best(runs.before) } : {}), after: best(runs.after) },
    runs,
  };
  writeFileSync(join(resultsDir(), 'step-work.json'), JSON.stringify(result, null, 1) + '\n');
  console.log(JSON.stringify(result.medianMs));
}
