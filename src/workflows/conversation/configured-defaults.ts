/**
 * A new conversation takes its defaults from the worker's configuration (`temporal.yaml` `compaction:` and
 * `summarizer:`), read once by a local activity when it starts; its own start settings still win.
 */
import type { ConversationState } from './conversation-state';
import { local } from './local-activities';
import { defaultSettings, mergeSettings, type SettingsPatch } from '../../contract/settings';

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
  try {
    const configured = await local.conversationDefaults();
    state.configure(mergeSettings(mergeSettings(defaultSettings, configured), start));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    state.noteError(`worker configuration not applied: ${message}`, Date.now());
  }
}
