/**
 * The fold target a new conversation starts with. Folding down to a quarter of the budget (the trigger stays at 0.9)
 * makes one fold buy about two thirds of a budget of growth before the next, so the cached prefix is rewritten, and a
 * summary written, less often; the measurements are in bench/results/cost.json and docs/folding.md.
 *
 * It reaches a conversation through the worker's `conversationDefaults` local activity, which the workflow runs once
 * when the conversation starts: the resolved value is recorded there and carried in the settings, so conversations
 * started before this default keep the target they resolved (no workflow patch).
 */
import {
  defaultSettings,
  mergeSettings,
  SettingsError,
  type ConversationSettings,
  type SettingsPatch,
} from './settings';
import { DEFAULT_TRIGGER_RATIO } from '../core/plan/options';

/** The `auto` policy's target for new conversations (the core's own default stays 0.5). */
export const NEW_CONVERSATION_TARGET_RATIO = 0.25;

/**
 * How a new conversation sizes its summary's room: `carried`, so what earlier summaries carry keeps its room and the
 * kept tail shrinks first (`CompactionOptions.summaryReserve`; the core's own default stays `fixed`).
 */
export const NEW_CONVERSATION_RESERVE = 'carried' as const;

/**
 * Whether a default fold target may apply under a trigger: only when the trigger is above it, or a fold could not
 * bring the context under the point where the next one starts. The conversation's defaults and the Compactor both
 * ask this.
 * @param trigger the trigger ratio given; `undefined` for the default (`DEFAULT_TRIGGER_RATIO`)
 * @returns true when `trigger` is above `target` (false for NaN)
 */
export function targetFitsUnder(target: number, trigger: number | undefined): boolean {
  return (trigger ?? DEFAULT_TRIGGER_RATIO) > target;
}

/**
 * @returns the worker's configured defaults with the new-conversation fold target and summary reserve under them:
 *   configured settings win, a configured `plan` replaces both, and they are left out when the configured trigger is
 *   not above the target.
 */
export function withFoldTarget(configured: SettingsPatch | undefined): SettingsPatch {
  const patch = configured ?? {};
  if (patch.plan !== undefined) return patch;
  if (!targetFitsUnder(NEW_CONVERSATION_TARGET_RATIO, patch.triggerRatio)) return patch;
  return { ...patch, plan: { targetRatio: NEW_CONVERSATION_TARGET_RATIO, summaryReserve: NEW_CONVERSATION_RESERVE } };
}

/**
 * Checks a new conversation's start settings the way the conversation will resolve them. Settings that fit the
 * core's defaults are taken over those (the settings a conversation has always started with); settings that do not,
 * but fit the new-conversation target (a `triggerRatio` at or below the core's 0.5 target but above 0.25, say), are
 * taken over that target, which the worker's defaults would have given them anyway.
 * @param patch the start settings (unchecked). @default the defaults alone
 * @returns the merged settings.
 * @throws SettingsError naming the field, when they fit neither (the message is the one over the new-conversation
 *   target, the target the conversation would fold to).
 */
export function mergeStartSettings(patch: unknown): ConversationSettings {
  try {
    return mergeSettings(defaultSettings, patch);
  } catch (err) {
    return mergeOverNewTarget(patch, err);
  }
}

/**
 * @param patch the start settings, already refused over the core's defaults with `refusal`.
 * @returns them merged over the new-conversation target.
 * @throws `refusal` when it is not a SettingsError; the SettingsError over the new-conversation target when they do
 *   not fit that either: a conversation would fold to that target, so the message names it (`plan.targetRatio
 *   (0.25)`), not the core's 0.5.
 */
export function mergeOverNewTarget(patch: unknown, refusal: unknown): ConversationSettings {
  if (!(refusal instanceof SettingsError)) throw refusal;
  return mergeSettings(mergeSettings(defaultSettings, withFoldTarget(undefined)), patch);
}
