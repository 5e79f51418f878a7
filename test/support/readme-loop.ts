/**
 * The README's TypeScript agent loop, cut out of README.md for the tests that run it as written (in this checkout and
 * from the installed package). Only the server address, task queue and conversation id are swapped for the test's.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConversationClient } from '../../src/client/conversation-client';
import type { OpenAITestServer } from './openai-server';
import { repoRoot } from './processes';

/** The first messages every README-loop test sends. */
export const LOOP_FIRST = [
  { role: 'system', content: 'You fix tickets.' },
  { role: 'user', content: 'Ticket 4711: the export is empty.' },
];

/** The tool results `runTools` returns at step n (1–3); the fourth call ends the loop. */
export const loopToolResult = (step: number) => ({ role: 'user', content: `step ${step}: the log says nothing` });

/** The model's reply every step (300 input tokens reported). */
export const loopReply = () => ({ kind: 'text' as const, text: 'I looked at it.', usage: { input: 300, output: 5 } });

/**
 * Checks a loop that ran four model calls (the fourth output not yet sent): every output and tool result joined the
 * conversation, the model got its context, usage calibrated.
 */
export async function assertLoopRan(openai: OpenAITestServer, conv: ConversationClient): Promise<void> {
  assert.equal(openai.requests.length, 4);
  const context = (await conv.context()).messages as { role: string; content: string }[];
  assert.deepEqual(
    context.map((m) => m.role),
    ['system', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']
  );
  assert.deepEqual(context.slice(-1), [loopToolResult(3)]);
  // What the model got at the last step is the conversation's context at that step.
  const sent = openai.requests[3]!.body!.messages as unknown[];
  assert.deepEqual(sent, context);
  // The usage each model call reported (300 input tokens) calibrated the estimate of the next context.
  const { calibration } = await conv.state();
  assert.ok(calibration, 'the reported usage was applied');
  assert.equal(calibration.samples, 3, 'every report after the first model call counted');
}

/** @returns the README's agent-loop block, split into its import lines and its body. */
export function readmeLoop(): { imports: string[]; body: string } {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Using it from an agent (TypeScript)'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'the README has the agent loop');
  const lines = block[1]!.split('\n');
  return {
    imports: lines.filter((l) => l.startsWith('import ')),
    body: lines.filter((l) => !l.startsWith('import ')).join('\n'),
  };
}

/** Replaces `from` (which must occur) with `to`. */
export function swap(text: string, from: string, to: string): string {
  assert.ok(text.includes(from), `the README's loop contains ${from}`);
  return text.split(from).join(to);
}

/**
 * The README's loop as a module exporting `run(ctx)`: `ctx.baseURL` is the model server, `ctx.first` the first
 * messages, `ctx.runTools` ends the loop by throwing.
 * @param importFix rewrites each import line (say, the package name to a path in this checkout).
 */
export function readmeLoopModule(
  target: { address: string; taskQueue: string; conversationId: string },
  importFix: (line: string) => string = (l) => l
): string {
  const { imports, body } = readmeLoop();
  let code = swap(body, "'127.0.0.1:7233'", JSON.stringify(target.address));
  code = swap(code, "taskQueue: 'durable-compaction'", `taskQueue: ${JSON.stringify(target.taskQueue)}`);
  code = swap(code, "'ticket-4711'", JSON.stringify(target.conversationId));
  return [
    "import OpenAI from 'openai';",
    ...imports.map(importFix),
    '',
    "/** What the test passes in: the agent's messages are the openai SDK's types, as in a user's code. */",
    'export interface LoopContext {',
    '  baseURL: string;',
    '  first: OpenAI.ChatCompletionMessageParam[];',
    '  runTools: (reply: OpenAI.ChatCompletion) => Promise<OpenAI.ChatCompletionMessageParam[]>;',
    '}',
    '',
    'export async function run(ctx: LoopContext): Promise<void> {',
    "  const openai = new OpenAI({ baseURL: ctx.baseURL, apiKey: 'sk-readme' });",
    '  const runTools = ctx.runTools;',
    '  let newMessages = ctx.first;',
    code,
    '}',
    '',
  ].join('\n');
}
