/**
 * `durable-compaction demo`: drives a recorded agent session through a conversation on the running worker, turn by
 * turn as an agent loop would (`prepare` before each model call, `record` after), showing a progress bar and each
 * fold as it happens.
 */
import { join } from 'node:path';
import { ConversationClient } from '../client/conversation-client';
import { loadConfig } from '../config/load-config';
import { groupDigits } from '../visibility/current-details';
import { connectTemporal, type CliTemporal } from './connect';
import { CliUsageError, parseFlags, readJsonArray, type CliIO } from './io';

/** The session the demo plays when none is given (a real SWE-agent run, 44 messages, ~13k tokens). */
export const DEFAULT_SESSION = join(
  __dirname,
  '..',
  '..',
  'examples',
  'sessions',
  'swe-agent-enigma-ctf-web-i_got_id.json'
);

export const demoHelp = `usage: durable-compaction demo [--session FILE] [--budget N] [--max-messages N] [--conversation ID]
Drives a recorded session (default: examples/sessions/, a real SWE-agent run) through a conversation on the running
worker ('npm start' first). A progress bar goes to stderr; each fold is printed as it happens (stderr) and as one
JSON line {"fold", "tokensBefore", "tokensAfter", "messagesFolded", "identifiersKept", "seconds", "ui"} (stdout),
then a JSON summary line. --budget defaults to 4000 tokens so the demo folds several times; --max-messages plays
only the first N messages.`;

interface DemoArgs {
  session: string;
  budget: number;
  maxMessages: number | undefined;
  conversationId: string;
}

function positiveInt(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) <= 0)
    throw new CliUsageError(`--${name} must be a positive integer, got '${text}'`);
  return Number(text);
}

function readArgs(args: string[]): DemoArgs {
  const { flags, positional } = parseFlags(args, ['session', 'budget', 'max-messages', 'conversation']);
  if (positional.length > 0) throw new CliUsageError(`unexpected argument '${positional[0]}'`);
  const budget = positiveInt('budget', flags.get('budget')) ?? 4000;
  if (budget < 256) throw new CliUsageError(`--budget must be at least 256, got ${budget}`);
  return {
    session: flags.get('session') ?? DEFAULT_SESSION,
    budget,
    maxMessages: positiveInt('max-messages', flags.get('max-messages')),
    conversationId: flags.get('conversation') ?? `demo-${new Date().toISOString().replace(/[:.]/g, '-')}`,
  };
}

/** @throws Error when no worker polls the task queue (the demo would wait forever). */
async function assertWorker(temporal: CliTemporal): Promise<void> {
  const { namespace, taskQueue } = temporal.config.temporal;
  const described = await temporal.client.workflowService.describeTaskQueue({
    namespace,
    taskQueue: { name: taskQueue },
    taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
  });
  if ((described.pollers ?? []).length === 0)
    throw new Error(`no worker polls task queue '${taskQueue}' on ${temporal.address}: run 'npm start' first`);
}

function bar(done: number, total: number, tokens: number, budget: number): string {
  const width = 30;
  const filled = Math.round((width * done) / Math.max(total, 1));
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} messages · ${groupDigits(tokens)} / ${groupDigits(budget)} tokens`;
}

/**
 * Runs `demo`.
 * @returns 0 once the session is played; rejects with CliUsageError (exit 2) on bad flags or a bad session file.
 */
export async function runDemo(args: string[], io: CliIO): Promise<number> {
  const opts = readArgs(args);
  const all = readJsonArray(opts.session);
  const messages = opts.maxMessages === undefined ? all : all.slice(0, opts.maxMessages);
  const temporal = await connectTemporal(loadConfig());
  try {
    await assertWorker(temporal);
    const conv = new ConversationClient({
      client: temporal.client,
      conversationId: opts.conversationId,
      taskQueue: temporal.config.temporal.taskQueue,
      settings: { budget: opts.budget },
    });
    const ui = temporal.uiLink(conv.workflowId);
    const progress = (done: number, tokens: number): void => {
      if (process.stderr.isTTY) process.stderr.write(`\r${bar(done, messages.length, tokens, opts.budget)}`);
    };
    const showFold = async (): Promise<void> => {
      const folds = await conv.folds();
      const f = folds[folds.length - 1]!;
      const line = {
        fold: f.number,
        ok: f.ok,
        tokensBefore: f.tokensBefore,
        tokensAfter: f.tokensAfter,
        messagesFolded: f.droppedCount,
        identifiersKept: f.identifiers ? `${f.identifiers.kept}/${f.identifiers.total}` : null,
        seconds: (f.finishedAt - f.startedAt) / 1000,
        ui,
      };
      if (process.stderr.isTTY) process.stderr.write('\n');
      io.stderr(
        f.ok
          ? `fold #${f.number}: ${groupDigits(f.tokensBefore)} → ${groupDigits(f.tokensAfter ?? 0)} tokens, ` +
              `${f.droppedCount} messages folded, identifiers kept ${line.identifiersKept ?? 'n/a'}, ${line.seconds.toFixed(1)} s`
          : `fold #${f.number} failed (${f.error?.kind}): sent unfolded`
      );
      io.stdout(JSON.stringify(line));
    };
    let pending: unknown[] = [];
    let tokens = 0;
    let folds = 0;
    const flush = async (done: number): Promise<void> => {
      const prepared = await conv.prepare(pending);
      pending = [];
      tokens = prepared.tokens;
      if (prepared.fold) {
        folds++;
        await showFold();
      }
      progress(done, tokens);
    };
    for (const [i, message] of messages.entries()) {
      if ((message as { role?: unknown }).role === 'assistant') {
        await flush(i);
        await conv.record([message]);
      } else {
        pending.push(message);
      }
    }
    if (pending.length > 0) await flush(messages.length);
    if (process.stderr.isTTY) process.stderr.write('\n');
    const state = await conv.state();
    io.stderr(
      `done: ${messages.length} messages, ${folds} folds, context ${groupDigits(state.tokens)} tokens. ${ui ?? ''}`
    );
    io.stdout(
      JSON.stringify({
        conversation: opts.conversationId,
        messages: messages.length,
        folds,
        tokens: state.tokens,
        budget: state.budget,
        archived: state.archived,
        ui,
      })
    );
    return 0;
  } finally {
    await temporal.close();
  }
}
