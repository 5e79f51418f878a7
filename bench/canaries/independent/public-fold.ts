/**
 * One fold through the public `fold` command (`durable-compaction fold`, in process): the same path a user of the
 * CLI takes (offline extractive summarizer, the default profile), with its refusal of budgets under 256 tokens.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFold } from '../../../src/cli/fold';

type Message = Record<string, unknown>;

/** What one `fold` call gave. */
export interface PublicFold {
  messages: Message[];
  /** The fold record (`null` when the context was under the trigger). */
  record: Record<string, unknown> | null;
  /** The command refused the call (its message). */
  refused?: string;
  /** The command declined to fold a context over the budget and said so. */
  overBudget?: { budget: number; by: number };
}

let dir: string | undefined;

/**
 * Runs `durable-compaction fold --model M --budget B FILE`.
 *
 * @returns the folded context and the fold record, or the refusal
 */
export async function publicFold(messages: readonly Message[], budget: number, model = 'gpt-4o'): Promise<PublicFold> {
  dir ??= mkdtempSync(join(tmpdir(), 'canaries-'));
  const file = join(dir, 'in.json');
  writeFileSync(file, JSON.stringify(messages));
  const out: string[] = [];
  try {
    await runFold(['--model', model, '--budget', String(budget), file], {
      stdout: (l) => out.push(l),
      stderr: () => undefined,
    });
  } catch (err) {
    return { messages: [...messages], record: null, refused: err instanceof Error ? err.message : String(err) };
  }
  const parsed = JSON.parse(out.join('\n')) as {
    messages: Message[];
    fold: Record<string, unknown> | null;
    overBudget?: { budget: number; by: number };
  };
  return {
    messages: parsed.messages,
    record: parsed.fold,
    ...(parsed.overBudget ? { overBudget: parsed.overBudget } : {}),
  };
}

/** Removes the temporary directory. */
export function cleanUp(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}
