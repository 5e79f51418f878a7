/**
 * A new conversation takes its defaults from the worker's configuration (`temporal.yaml` `compaction:` and
 * `summarizer:`), read once by a local activity when it starts; its own start settings still win. Gated by
 * `patched()` so conversations started before this change replay as they ran.
 */
import { patched } from '@temporalio/workflow';
import type { ConversationState } from './conversation-state';
import { local } from './local-activities';
import { defaultSettings, mergeSettings, type SettingsPatch } from '../contract/settings';

/** Patch id of this behaviour. */
export const SETTINGS_FROM_CONFIGURATION = 'conversation-settings-from-worker-configuration';

/**
 * Re-derives a fresh conversation's settings as built-in defaults ← configuration ← start settings. A configuration
 * the start settings cannot be merged over (say, a plan option its policy rejects) leaves the start settings alone
 * and is reported in `lastError`.
 * @returns nothing; never throws.
 */
export async function adoptConfiguredDefaults(
  state: ConversationState,
  start: SettingsPatch | undefined
): Promise<void> {
  if (!patched(SETTINGS_FROM_CONFIGURATION)) return;
  try {
    const configured = await local.conversationDefaults();
    state.configure(mergeSettings(mergeSettings(defaultSettings, configured), start));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    state.noteError(`worker configuration not applied: ${message}`, Date.now());
  }
}
