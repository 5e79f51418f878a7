/**
 * `durable-compaction plan --model M --budget N [--policy P] [--format F] [--tools FILE] FILE`: counts FILE's messages for the model
 * and prints the fold decision as one JSON line:
 * `{"fold", "reason", "tokens", "split", "summarize", "keep"}`, indices into the input array, `keep` in the order the
 * folded context would hold them. The file is planned as the workflow would store it: a call the agent moved on from
 * counts with its "not run" result (which has no index in the file).
 */
import { NEW_CONVERSATION_RESERVE } from '../contract/fold-target';
import { normalize } from '../core/messages/normalize';
import { answerAbandonedCalls } from './answer-abandoned';
import type { MessageFormat } from '../core/messages/types';
import { TranscriptValidationError } from '../core/messages/validate';
import { KEEP_POLICIES, type KeepPolicy } from '../core/plan/options';
import { planFold } from '../core/plan/plan';
import { createTokenCounter, TokenInputError } from '../tokens';
import { FORMAT_TOOLS_FLAGS, formatFlag, toolsFlag } from './format-tools-flags';
import { CliUsageError, parseFlags, readJsonArray, type CliIO } from './io';

/** Reads and checks the flags. @throws CliUsageError on a missing or bad value. */
function readArgs(args: string[]): {
  model: string;
  budget: number;
  policy: KeepPolicy;
  format?: MessageFormat;
  file?: string;
  tools: unknown[];
} {
  const { flags, positional } = parseFlags(args, ['model', 'budget', 'policy', ...FORMAT_TOOLS_FLAGS]);
  const model = flags.get('model');
  if (model === undefined) throw new CliUsageError('missing --model M');
  const budgetText = flags.get('budget');
  if (budgetText === undefined) throw new CliUsageError('missing --budget N');
  const budget = Number(budgetText);
  if (!/^\d+$/.test(budgetText) || !Number.isSafeInteger(budget) || budget <= 0) {
    throw new CliUsageError(`--budget must be a positive integer, got '${budgetText}'`);
  }
  const policy = (flags.get('policy') ?? 'auto') as KeepPolicy;
  if (!KEEP_POLICIES.includes(policy))
    throw new CliUsageError(`--policy must be one of ${KEEP_POLICIES.join(', ')}, got '${policy}'`);
  const format = formatFlag(flags);
  if (positional.length > 1) throw new CliUsageError(`expected one FILE, got ${positional.length}`);
  return {
    model,
    budget,
    policy,
    tools: toolsFlag(flags),
    ...(format ? { format } : {}),
    ...(positional[0] === undefined ? {} : { file: positional[0] }),
  };
}

/**
 * Runs `plan`.
 * @returns a promise of 0 after printing the decision.
 * @throws (rejects with) CliUsageError (exit 2) on bad flags, an unreadable FILE, or malformed messages.
 */
export function runPlan(args: string[], io: CliIO): Promise<number> {
  try {
    const { model, budget, policy, format, file, tools } = readArgs(args);
    const given = readJsonArray(file);
    // Planned as the workflow would store the file: abandoned calls answered "not run" (indices still into FILE).
    const { messages, origin } = answerAbandonedCalls(given, normalize(given, format).format);
    const transcript = normalize(messages, format);
    const counter = createTokenCounter({ model });
    const tokens = counter.countMessages(messages, transcript.format);
    const fixedTokens = counter.replyPriming + counter.countTools(tools);
    const options = { budget, policy, summaryReserve: NEW_CONVERSATION_RESERVE };
    const plan = planFold({ transcript, tokens, fixedTokens, options });
    const { fold, reason } = plan;
    const inFile = (indices: number[]): number[] => indices.map((i) => origin[i]!).filter((i) => i >= 0);
    const split = origin.slice(0, plan.split).filter((i) => i >= 0).length;
    const [summarize, keep] = [inFile(plan.summarize), inFile(plan.keep)];
    io.stdout(JSON.stringify({ fold, reason, tokens: plan.tokens, split, summarize, keep }));
    return Promise.resolve(0);
  } catch (err) {
    if (err instanceof TranscriptValidationError || err instanceof TokenInputError) {
      return Promise.reject(new CliUsageError(err.message));
    }
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}
