/**
 * The configuration's `compaction:` section as defaults for new conversations: explicit settings of a conversation
 * (start argument, client option, `configure`) still win. The `summarizer:` section is the worker's default
 * summarizer profile (`profiles.ts`), which conversations that name no profile use at every fold.
 */
import type { KeepPolicy } from '../core/plan/options';
import type { SettingsPatch } from '../contract/settings';
import type { Config } from './schema';

/** @returns the settings patch a new conversation starts from, before its own settings. */
export function conversationDefaultsFromConfig(config: Pick<Config, 'compaction'>): SettingsPatch {
  const { model, budget, triggerRatio, policy, maxMessageBytes } = config.compaction;
  return {
    model,
    budget,
    triggerRatio,
    // The schema's enum values are the settings' own (checked again by mergeSettings in the workflow).
    policy: policy as KeepPolicy,
    maxMessageBytes,
  };
}
