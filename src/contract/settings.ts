/**
 * Per-conversation settings: what the workflow needs to count, plan and fold. Plain JSON, carried across
 * continue-as-new; secrets never appear here (the summarizer gets the *name* of the variable holding its key).
 */
import { DEFAULT_TRIGGER_RATIO, resolveOptions, type CompactionOptions, type KeepPolicy } from '../core/plan/options';
import { defaultFoldLimits, foldLimitsProblem } from './fold-limits';
import { defaultFoldSettings, type FoldSettings } from './fold-settings';
import { unknownKeyMessage } from '../core/input/known-keys';
import { checkPlanSettings, type PlanSettings } from './validate-plan';
import { limitsPatch, type RunLimits } from './schemas/limits';
import { MAX_BUDGET, settingsPatchSchema } from './schemas/settings';
import { parsed } from './schemas/problem';
import { settingsTogetherProblem } from './settings-together';
import { defaultSummarizerSettings, mergeSummarizerSettings, type SummarizerSettings } from './summarizer-settings';
import { toolsProblem } from './tool-schemas';

export type { SummarizerSettings } from './summarizer-settings';
export type { PlanSettings } from './validate-plan';
export type { RunLimits } from './schemas/limits';

/** What a conversation is compacted against (and, from `FoldSettings`, how its folds run). */
export interface ConversationSettings extends FoldSettings {
  /** Model the context is sent to; picks the tokenizer. @default 'gpt-4o' */
  model: string;
  /** Context budget in tokens. @default 128000 */
  budget: number;
  /** Fold at this share of the budget. @default 0.9 */
  triggerRatio: number;
  /** @default 'auto' */
  policy: KeepPolicy;
  /** Largest single message accepted, in bytes of JSON. @default 1048576 */
  maxMessageBytes: number;
  /**
   * Byte budget of the live context as JSON: past it, the heaviest older messages are lightened (binary parts and
   * long strings replaced by a note naming the archived original), so state and queries stay under Temporal's 2 MiB
   * payload limit whatever the messages weigh. @default 1048576
   */
  maxContextBytes: number;
  /** What to do with a call still unanswered when the context is sent. @default 'synthesize' */
  unanswered: 'error' | 'synthesize';
  /**
   * Further planning options of the chosen policy (keepTurns, keepLast, keepRecentCount, maxRounds, roundsMode,
   * targetRatio, tailRatio, minFoldTokens, pin, filter, …), as documented on `CompactionOptions`. @default {}
   */
  plan: PlanSettings;
  /**
   * Eviction of stale tool outputs: when a user turn starts with the context at or above this share of the budget, and inside a turn
   * once the fold trigger is reached, old tool outputs in the live context are replaced by pointers saying how to get
   * them back (the archive keeps them), which postpones folds. Off by default because every eviction rewrites the middle of the prompt and so costs a
   * provider prompt-cache miss; 0.5 evicts early (postponing folds). 0 = off. @default 0
   */
  evictAtRatio: number;
  /**
   * The tool definitions sent with every request (Chat or Responses `tools`), counted with the cookbook's §7
   * constants into every budget decision. Also replaced by `prepare`'s `tools` field. At most 128 tools and 128 KiB
   * of JSON. @default []
   */
  tools: unknown[];
  summarizer: SummarizerSettings;
  /**
   * Rules the model must keep verbatim whatever is folded: one rules element right after the system prompt (see
   * `pinned-messages.ts`); `configure` replaces the list. At most 64 rules of 2 000 characters, 16 384 together; with pinned
   * messages at most a quarter of the budget. Absent until rules are set. @default none
   */
  rules?: string[];
}

export { MAX_BUDGET };

export const defaultSettings: ConversationSettings = {
  model: 'gpt-4o',
  budget: 128_000,
  triggerRatio: DEFAULT_TRIGGER_RATIO,
  policy: 'auto',
  maxMessageBytes: 1_048_576,
  maxContextBytes: 1_048_576,
  unanswered: 'synthesize',
  plan: {},
  evictAtRatio: 0,
  ...defaultFoldSettings,
  tools: [],
  summarizer: defaultSummarizerSettings,
};

export const defaultLimits: RunLimits = {
  maxUpdatesPerRun: 60,
  maxHistoryBytes: 8 * 1024 * 1024,
  maxHistoryEvents: 8000,
  ...defaultFoldLimits,
};

/** A partial update of the settings (the `configure` update and the start input). */
export type SettingsPatch = Partial<Omit<ConversationSettings, 'summarizer'>> & {
  summarizer?: Partial<SummarizerSettings>;
};

/** The options `planFold` gets for these settings. */
export function planOptions(settings: ConversationSettings): CompactionOptions {
  return { ...settings.plan, budget: settings.budget, triggerRatio: settings.triggerRatio, policy: settings.policy };
}

/**
 * Merges a patch over settings after checking every field against {@link settingsPatchSchema}, then the parts with
 * checks of their own (plan, summarizer, tools) and how the result fits together.
 * @returns the merged settings (a new object).
 * @throws SettingsError naming the first bad field, or the settings that do not fit together.
 */
export function mergeSettings(base: ConversationSettings, patch: unknown): ConversationSettings {
  if (patch === undefined || patch === null) return base;
  const refuse = (message: string) => new SettingsError(message);
  const isObject = typeof patch === 'object' && !Array.isArray(patch);
  if (isObject) {
    // Named as `settings.<key>`; the fields themselves are named bare (`budget must be …`), as callers write them.
    const unknown = unknownKeyMessage(patch, Object.keys(settingsPatchSchema.shape), 'settings');
    if (unknown) throw refuse(unknown);
  }
  const p = parsed(settingsPatchSchema, patch, '', refuse, isObject ? '' : 'settings');
  const out: ConversationSettings = { ...base, summarizer: { ...base.summarizer } };
  for (const [key, value] of Object.entries(p)) {
    // Rules arrive checked and trimmed by their schema (`settingsPatchSchema.rules`).
    if (value !== undefined && key !== 'plan' && key !== 'summarizer') Object.assign(out, { [key]: value });
  }
  if (p.tools !== undefined) {
    const problem = toolsProblem(p.tools, 'tools');
    if (problem) throw refuse(problem);
  }
  if (p.plan !== undefined) out.plan = rethrown(() => checkPlanSettings(p.plan));
  if (p.summarizer !== undefined)
    out.summarizer = rethrown(() => mergeSummarizerSettings(base.summarizer, p.summarizer));
  const problem = rethrown(() => {
    resolveOptions(planOptions(out));
    return settingsTogetherProblem(planOptions(out));
  });
  if (problem) throw refuse(problem);
  return out;
}

/**
 * Merges partial run limits over the defaults; each limit has a floor and a ceiling (`schemas/limits.ts`).
 * @returns the merged limits (`base` itself when there is no patch).
 * @throws SettingsError naming the first bad field.
 */
export function mergeLimits(base: RunLimits, patch: unknown): RunLimits {
  if (patch === undefined || patch === null) return base;
  const given = parsed(limitsPatch, patch, '', (message) => new SettingsError(message), 'limits');
  const out: RunLimits = { ...base };
  for (const [key, value] of Object.entries(given)) if (value !== undefined) out[key as keyof RunLimits] = value;
  const problem = foldLimitsProblem(out);
  if (problem) throw new SettingsError(problem);
  return out;
}

/** A setting failed validation; the message names it. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

/** @returns what `check` returns; its error as a SettingsError with the same message. */
function rethrown<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    throw err instanceof SettingsError ? err : new SettingsError(err instanceof Error ? err.message : String(err));
  }
}
