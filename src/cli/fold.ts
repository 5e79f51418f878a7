/**
 * `durable-compaction fold --model M --budget N [--summarizer S] [--policy P] [--format F] [--tools FILE] FILE`: one fold offline, through the
 * same fold step as the workflow (`beginFold` → `summarizeOutcome` → `completeFold`, src/workflows/fold/fold-step.ts) and
 * the same summarizing code as its activity (`summarizeHead`).
 */
import { NEW_CONVERSATION_RESERVE } from '../contract/fold-target';
import { summarizeHead } from '../activities';
import { createSummarizeActivity } from '../activities/summarize';
import { loadConfig } from '../config/load-config';
import { profilesFromConfig } from '../config/profiles';
import { normalize } from '../core/messages/normalize';
import type { MessageFormat } from '../core/messages/types';
import { TranscriptValidationError } from '../core/messages/validate';
import { KEEP_POLICIES, type KeepPolicy } from '../core/plan/options';
import { planFold } from '../core/plan/plan';
import { countersByModel, TokenInputError } from '../tokens';
import { outcomeOfSummarizeFold } from '../workflows/fold/outcomes';
import { beginFold, completeFold, summarizeOutcome } from '../workflows/fold/fold-step';
import { findProfile } from '../summarizers/profiles';
import type { SummarizerChoice } from '../summarizers/profiles';
import { answerAbandonedCalls } from './answer-abandoned';
import { FORMAT_TOOLS_FLAGS, formatFlag, toolsFlag } from './format-tools-flags';
import { CliUsageError, parseFlags, readJsonArray, type CliIO } from './io';

export const foldHelp = `usage: durable-compaction fold --model M --budget N [--summarizer extractive|PROFILE] [--policy P] [--format F] [--tools FILE] FILE
Folds FILE (a JSON array of messages; - reads stdin) once, offline, through the workflow's fold step, and prints
{"messages": [...the folded context...], "fold": {...the fold record...}}; "fold" is null (with "reason") when it
does not fold, and then "overBudget": {"budget", "by"} says when the context is over the budget all the same. The
summarizer defaults to extractive (the offline digest, no network); PROFILE names a summarizer profile of
temporal.yaml ('default' is its summarizer section; summarizerProfiles lists the others).`;

/** Runs `fold`. @returns 0; rejects with CliUsageError (exit 2) on bad flags or a malformed FILE. */
export async function runFold(args: string[], io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(args, ['model', 'budget', 'summarizer', 'policy', ...FORMAT_TOOLS_FLAGS]);
  const givenFormat = formatFlag(flags);
  const tools = toolsFlag(flags);
  const model = flags.get('model');
  if (model === undefined) throw new CliUsageError('missing --model M');
  const budgetText = flags.get('budget') ?? '';
  if (!/^\d+$/.test(budgetText) || Number(budgetText) < 256)
    throw new CliUsageError(`--budget must be an integer of at least 256, got '${budgetText}'`);
  const budget = Number(budgetText);
  const profiles = profilesFromConfig(loadConfig());
  const wanted = flags.get('summarizer') ?? 'extractive';
  const found = wanted === 'extractive' ? null : findProfile(profiles, wanted);
  if (found && !found.config) throw new CliUsageError(`--summarizer: ${found.message}`);
  const summarizer: SummarizerChoice = found ? { profile: wanted } : { mode: 'extractive' };
  const policy = (flags.get('policy') ?? 'auto') as KeepPolicy;
  if (!KEEP_POLICIES.includes(policy))
    throw new CliUsageError(`--policy must be one of ${KEEP_POLICIES.join(', ')}, got '${policy}'`);
  if (positional.length !== 1) throw new CliUsageError('expected one FILE');
  const given = readJsonArray(positional[0]);
  const counterFor = countersByModel();
  const counter = counterFor(model);
  let format: MessageFormat;
  let tokens: number[];
  let transcript: ReturnType<typeof normalize>;
  let messages: unknown[];
  let fixedTokens: number;
  try {
    // Folded as the workflow would store the file: abandoned calls answered "not run".
    messages = answerAbandonedCalls(given, normalize(given, givenFormat).format).messages;
    transcript = normalize(messages, givenFormat);
    format = transcript.format;
    tokens = counter.countMessages(messages, format);
    fixedTokens = counter.replyPriming + counter.countTools(tools);
  } catch (err) {
    if (err instanceof TranscriptValidationError || err instanceof TokenInputError)
      throw new CliUsageError(err.message);
    throw err;
  }
  const total = (counts: readonly number[]): number => counts.reduce((a, b) => a + b, 0) + fixedTokens;
  const plan = planFold({
    transcript,
    tokens,
    fixedTokens,
    options: { budget, policy, summaryReserve: NEW_CONVERSATION_RESERVE },
  });
  const tokensBefore = total(tokens);
  if (!plan.fold || plan.kind === 'truncate') {
    // Declined over the budget (nothing it may fold, or too little): say so as a folded context over it would.
    const over = tokensBefore > budget ? { overBudget: { budget, by: tokensBefore - budget } } : {};
    io.stdout(JSON.stringify({ messages, fold: null, reason: plan.reason, tokens: tokensBefore, ...over }));
    return 0;
  }
  const ticket = beginFold({ plan, raws: messages, tokensBefore, startedAt: Date.now() });
  const head = plan.summarize.map((i) => messages[i]);
  const { foldedTokens, keptTokens, carriedRoomTokens } = plan;
  const summarize = createSummarizeActivity({ profiles, counterFor, outsideActivity: true });
  const outcome = await summarizeOutcome(async () =>
    outcomeOfSummarizeFold(
      await summarizeHead(
        head,
        {
          format,
          model,
          budget,
          summarizer,
          foldedTokens,
          keptTokens,
          ...(carriedRoomTokens !== undefined ? { carriedRoomTokens } : {}),
        },
        summarize
      )
    )
  );
  const countOf = new Map(messages.map((raw, i) => [raw, tokens[i] ?? 0]));
  const done = await completeFold({
    ticket,
    outcome,
    number: 1,
    transcript,
    backoff: null,
    budget,
    count: (inserted) => Promise.resolve(counter.countMessages(inserted, format)),
    measure: (applied) => {
      const added = new Map(applied.inserted.map((raw, i) => [raw, applied.counts[i] ?? 0]));
      return total(applied.folded.map((raw) => countOf.get(raw) ?? added.get(raw) ?? 0));
    },
    now: () => Date.now(),
  });
  io.stdout(JSON.stringify({ messages: done.applied?.folded ?? messages, fold: done.record }));
  return 0;
}
