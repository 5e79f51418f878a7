/**
 * Options of the embeddable {@link Compactor} (see `compactor.ts`): what the caller's workflow passes when it builds
 * one. They are code-side configuration, not state, so they are not carried across continue-as-new: the caller passes
 * them again in every run. Validated once, in the constructor.
 */
import { ApplicationFailure, type ActivityOptions, type LocalActivityOptions } from '@temporalio/workflow';
import { formatNamed, MESSAGE_FORMATS } from '../../core/messages/format-name';
import type { MessageFormat } from '../../core/messages/types';
import { PlanOptionsError, resolveOptions, type CompactionOptions } from '../../core/plan/options';
import type { PlanPredicates } from '../../core/plan/types';
import { defaultSettings, mergeSettings, SettingsError, type SummarizerSettings } from '../../contract/settings';

/** Failure type of the `ApplicationFailure` thrown for bad compactor options. */
export const INVALID_COMPACTOR_OPTIONS = 'InvalidCompactorOptions';

/** Activity options and registered names of the two activities the compactor calls. */
export interface CompactorActivityOptions {
  /**
   * Options of the `countTokens` local activity.
   * @default 30 s start-to-close, at most 5 attempts, invalid input not retried
   */
  countTokens?: LocalActivityOptions;
  /**
   * Options of the `summarize` activity.
   * @default the conversation workflow's default `limits`: 5 min start-to-close, 15 min schedule-to-close, 10 s
   *   heartbeat timeout, retries from 1 s to 1 min, at most 5 attempts
   */
  summarize?: ActivityOptions;
  /** Names the activities are registered under on the caller's worker. @default countTokens, summarize */
  names?: { countTokens?: string; summarize?: string };
}

/**
 * What a compactor compacts against. Every planning option of the core (`CompactionOptions`: `budget`, `triggerRatio`,
 * `policy`, `keepLast`, `pin`/`filter` selectors, …) is accepted as is; the rest are specific to embedding.
 */
export interface CompactorOptions extends CompactionOptions {
  /** The model the context is sent to: picks the tokenizer and is the default summary model. @default 'gpt-4o' */
  model?: string;
  /** Wire format of the transcript. @default detected from the messages on each call (pass it to be sure) */
  format?: MessageFormat;
  /**
   * Summarizer profile (configured on the worker), output limit and extra instructions.
   * @default the worker's default profile
   */
  summarizer?: Partial<SummarizerSettings>;
  /** The agent's own system prompt, leading each summary request (so the request shares the agent's prompt-cache prefix). @default none */
  systemPrompt?: string;
  /** Tool schemas sent with every model call, counted against the budget. @default none */
  tools?: unknown[];
  /** Predicates in addition to the `pin`/`filter` selectors (pin: kept verbatim; filter: hidden from the summarizer). Not carried in state. */
  predicates?: PlanPredicates;
  /** Activity options and names. */
  activities?: CompactorActivityOptions;
  /** Fold records kept in state (older ones are dropped). @default 20 */
  foldsKept?: number;
  /** Per-message token counts kept in state, for the messages of the last context sent. @default 4096 */
  maxCountEntries?: number;
}

/** Options with every default applied. */
export interface ResolvedCompactorOptions {
  model: string;
  format: MessageFormat | undefined;
  planning: CompactionOptions;
  summarizer: SummarizerSettings;
  systemPrompt: string | undefined;
  tools: unknown[] | undefined;
  predicates: PlanPredicates | undefined;
  activities: CompactorActivityOptions;
  foldsKept: number;
  maxCountEntries: number;
}

/**
 * Applies the defaults and checks every option.
 * @returns the resolved options.
 * @throws ApplicationFailure (non-retryable, type {@link INVALID_COMPACTOR_OPTIONS}) naming the bad option: a bad
 *   planning option, bad summarizer settings, `roundsMode: 'truncate'` (it drops messages without a summary, which
 *   the compactor does not apply), or a non-positive bound. Non-retryable because the same code fails the same way.
 */
export function resolveCompactorOptions(options: CompactorOptions): ResolvedCompactorOptions {
  try {
    const {
      model,
      format,
      summarizer,
      systemPrompt,
      tools,
      predicates,
      activities,
      foldsKept,
      maxCountEntries,
      ...planning
    } = options;
    resolveOptions(planning);
    if (planning.roundsMode === 'truncate') {
      throw new SettingsError("roundsMode 'truncate' is not supported by the compactor (it only folds)");
    }
    const merged = mergeSettings(defaultSettings, {
      ...(model !== undefined ? { model } : {}),
      ...(summarizer !== undefined ? { summarizer } : {}),
    });
    const named = format === undefined ? undefined : formatNamed(format);
    if (format !== undefined && !named) {
      throw new SettingsError(`format must be one of ${MESSAGE_FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
    }
    if (tools !== undefined && !Array.isArray(tools)) throw new SettingsError('tools must be an array');
    return {
      model: merged.model,
      format: named,
      planning,
      summarizer: merged.summarizer,
      systemPrompt,
      tools,
      predicates,
      activities: activities ?? {},
      foldsKept: positive(foldsKept ?? 20, 'foldsKept'),
      maxCountEntries: positive(maxCountEntries ?? 4096, 'maxCountEntries'),
    };
  } catch (err) {
    if (err instanceof SettingsError || err instanceof PlanOptionsError) {
      throw ApplicationFailure.create({ message: err.message, type: INVALID_COMPACTOR_OPTIONS, nonRetryable: true });
    }
    throw err;
  }
}

function positive(v: number, name: string): number {
  if (!Number.isInteger(v) || v < 1) throw new SettingsError(`${name} must be a positive integer, got ${v}`);
  return v;
}
