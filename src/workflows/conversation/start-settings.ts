/**
 * A new conversation's settings from its start argument. Start settings that fit only the new-conversation fold
 * target (see `contract/fold-target.ts`) used to fail the start; they are now taken over that target, behind the
 * `start-over-new-target` patch so a run that failed that way before still replays as it ran.
 */
import { patched } from '@temporalio/workflow';
import { mergeOverNewTarget } from '../../contract/fold-target';
import { defaultSettings, mergeSettings, type ConversationSettings } from '../../contract/settings';

/**
 * @param patch the start settings (unchecked). @default the defaults alone
 * @returns them merged over the core's defaults, or, when they do not fit those, over the new-conversation target.
 * @throws SettingsError naming the field when they fit neither (or, replaying a run from before the patch, when
 *   they do not fit the core's defaults).
 */
export function startSettings(patch: unknown): ConversationSettings {
  try {
    return mergeSettings(defaultSettings, patch);
  } catch (err) {
    if (!patched('start-over-new-target')) throw err;
    return mergeOverNewTarget(patch, err);
  }
}
