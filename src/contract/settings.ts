/**
 * Per-conversation settings: what the workflow needs to count, plan and fold. Plain JSON, carried across
 * continue-as-new; secrets never appear here (the summarizer gets the *name* of the variable holding its key).
 */
import { DEFAULT_TRIGGER_RATIO, resolveOptions, type CompactionOptions, type KeepPolicy } from '../core/plan/options';
import { defaultFoldLimits, foldLimitsProblem } from './fold-limits';
import { checkFoldSettings, defaultFoldSettings, foldSettingKeys, type FoldSettings } from './fold-settings';
import { unknownKeyMessage } from '../core/input/known-keys';
import { checkPlanSettings, type PlanSettings } from './validate-plan';
import { limitsPatch, type RunLimits } from './schemas/limits';
import { parsed } from './schemas/problem';
import { checkRules } from './pin-rules';
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
   * `pins.ts`); `configure` replaces the list. At most 64 rules of 2 000 characters, 16 384 together; with pinned
   * messages at most a quarter of the budget. Absent until rules are set. @default none
   */
  rules?: string[];
}

/** Largest budget a conversation accepts, in tokens (see `mergeSettings`). */
export const MAX_BUDGET = 1_000_000;

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

const policies: readonly string[] = ['auto', 'turns', 'items', 'ratio', 'rounds', 'tokens'];

/**
 * Merges a patch over settings after checking every field.
 * @returns the merged settings (a new object).
 * @throws SettingsError naming the first bad field, or the settings that do not fit together.
 */
export function mergeSettings(base: ConversationSettings, patch: unknown): ConversationSettings {
  if (patch === undefined || patch === null) return base;
  const p = record(patch, 'settings');
  const known = [
    'model',
    'budget',
    'triggerRatio',
    'policy',
    'maxMessageBytes',
    'maxContextBytes',
    'unanswered',
    'plan',
    'evictAtRatio',
    'tools',
    'summarizer',
    'rules',
    ...foldSettingKeys,
  ];
  const unknown = unknownKeyMessage(p, known, 'settings');
  if (unknown) throw new SettingsError(unknown);
  const out: ConversationSettings = { ...base, summarizer: { ...base.summarizer } };
  if (p.model !== undefined) out.model = nonEmptyString(p.model, 'model');
  // Tokens do not bound the payloads: the byte budget (maxContextBytes) does, holding the oldest messages by reference
  // past it (workflows/byte-budget.ts), so a million-token context carries and answers in well under 2 MiB.
  if (p.budget !== undefined) out.budget = integer(p.budget, 'budget', 256, MAX_BUDGET);
  if (p.triggerRatio !== undefined) out.triggerRatio = ratio(p.triggerRatio, 'triggerRatio');
  if (p.policy !== undefined) out.policy = oneOf(p.policy, 'policy', policies) as KeepPolicy;
  if (p.maxMessageBytes !== undefined)
    out.maxMessageBytes = integer(p.maxMessageBytes, 'maxMessageBytes', 1024, 1_572_864);
  if (p.maxContextBytes !== undefined)
    out.maxContextBytes = integer(p.maxContextBytes, 'maxContextBytes', 65_536, 1_572_864);
  if (p.unanswered !== undefined)
    out.unanswered = oneOf(p.unanswered, 'unanswered', ['error', 'synthesize']) as 'error' | 'synthesize';
  if (p.evictAtRatio !== undefined) {
    if (typeof p.evictAtRatio !== 'number' || !(p.evictAtRatio >= 0 && p.evictAtRatio <= 1)) {
      throw new SettingsError(
        `evictAtRatio must be a number in [0, 1] (0 = off), got ${JSON.stringify(p.evictAtRatio)}`
      );
    }
    out.evictAtRatio = p.evictAtRatio;
  }
  if (p.rules !== undefined) {
    try {
      out.rules = checkRules(p.rules);
    } catch (err) {
      throw new SettingsError((err as Error).message);
    }
  }
  try {
    Object.assign(out, checkFoldSettings(p));
  } catch (err) {
    throw new SettingsError((err as Error).message);
  }
  if (p.tools !== undefined) {
    const problem = toolsProblem(p.tools, 'tools');
    if (problem) throw new SettingsError(problem);
    out.tools = p.tools as unknown[];
  }
  if (p.plan !== undefined) {
    try {
      out.plan = checkPlanSettings(record(p.plan, 'plan'));
    } catch (err) {
      throw err instanceof SettingsError ? err : new SettingsError((err as Error).message);
    }
  }
  if (p.summarizer !== undefined) {
    try {
      out.summarizer = mergeSummarizerSettings(base.summarizer, record(p.summarizer, 'summarizer'));
    } catch (err) {
      throw err instanceof SettingsError ? err : new SettingsError((err as Error).message);
    }
  }
  let problem: string | undefined;
  try {
    resolveOptions(planOptions(out));
    problem = settingsTogetherProblem(planOptions(out));
  } catch (err) {
    throw new SettingsError(err instanceof Error ? err.message : String(err));
  }
  if (problem) throw new SettingsError(problem);
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

function record(v: unknown, name: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new SettingsError(`${name} must be an object`);
  return v as Record<string, unknown>;
}
function string(v: unknown, name: string): string {
  if (typeof v !== 'string') throw new SettingsError(`${name} must be a string, got ${typeof v}`);
  return v;
}
function nonEmptyString(v: unknown, name: string): string {
  if (string(v, name).trim() === '') throw new SettingsError(`${name} must not be empty`);
  return v as string;
}
function integer(v: unknown, name: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new SettingsError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  }
  return v;
}
function ratio(v: unknown, name: string): number {
  if (typeof v !== 'number' || !(v > 0 && v <= 1))
    throw new SettingsError(`${name} must be a number in (0, 1], got ${JSON.stringify(v)}`);
  return v;
}
function oneOf(v: unknown, name: string, values: readonly string[]): string {
  if (typeof v !== 'string' || !values.includes(v))
    throw new SettingsError(`${name} must be one of ${values.join(', ')}, got ${JSON.stringify(v)}`);
  return v;
}
