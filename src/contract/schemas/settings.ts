/**
 * The settings patch (`configure` and the start input's `settings`): each field's bounds with its refusal, and their
 * JSON Schema, from one schema. The parts with their own schema (rules, fold settings, `plan`, `summarizer`) are
 * nested here; how the settings fit together is checked after it (`settingsTogetherProblem`), the tool definitions by
 * `toolsProblem`.
 */
import * as z from 'zod/v4-mini';
import { foldSettingsPatch } from './fold-settings';
import { intFrom, matching, says } from './leaves';
import { planSettingsSchema } from './plan-settings';
import { rulesSchema } from './rules';
import { summarizerPatch } from './summarizer-settings';

/** Largest budget a conversation accepts, in tokens. */
export const MAX_BUDGET = 1_000_000;

/** The keep policies a conversation may choose. */
export const POLICIES = ['auto', 'turns', 'items', 'ratio', 'rounds', 'tokens'] as const;

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, says(`must be one of ${values.join(', ')}`));

const model = matching(z.string(says('must be a string')), /\S/, says('must not be empty'));

const triggerRatio = says('must be a number in (0, 1]');
const evictAtRatio = says('must be a number in [0, 1] (0 = off)');

/** A settings patch: every field optional (absent: unchanged). */
export const settingsPatchSchema = z.strictObject(
  {
    model: z.optional(model),
    // Tokens do not bound the payloads: the byte budget (maxContextBytes) does, holding the oldest messages by
    // reference past it, so a million-token context carries and answers in well under 2 MiB.
    budget: z.optional(intFrom(256, MAX_BUDGET)),
    triggerRatio: z.optional(z.number(triggerRatio).check(z.gt(0, triggerRatio), z.lte(1, triggerRatio))),
    policy: z.optional(oneOf(POLICIES)),
    maxMessageBytes: z.optional(intFrom(1024, 1_572_864)),
    maxContextBytes: z.optional(intFrom(65_536, 1_572_864)),
    unanswered: z.optional(oneOf(['error', 'synthesize'])),
    plan: z.optional(z.unknown()),
    evictAtRatio: z.optional(z.number(evictAtRatio).check(z.gte(0, evictAtRatio), z.lte(1, evictAtRatio))),
    tools: z.optional(z.array(z.unknown(), says('must be an array of tool definitions'))),
    summarizer: z.optional(z.unknown()),
    rules: z.optional(rulesSchema),
    ...foldSettingsPatch.shape,
  },
  says('must be an object')
);

/**
 * The same patch with `plan` and `summarizer` in full, for the protocol's JSON Schema (the check reads those two
 * with their own checks, which name a misplaced or legacy key before the schema's unknown-key refusal).
 */
export const settingsPatchShape = z.strictObject({
  ...settingsPatchSchema.shape,
  plan: z.optional(planSettingsSchema),
  summarizer: z.optional(summarizerPatch),
});
