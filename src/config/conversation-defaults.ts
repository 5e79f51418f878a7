/**
 * The configuration's `compaction:` section as defaults for new conversations: explicit settings of a conversation
 * (start argument, client option, `configure`) still win. The `summarizer:` section is the worker's default
 * summarizer profile (`profiles.ts`), which conversations that name no profile use at every fold.
 */
import type { KeepPolicy } from '../core/plan/options';
import type { SettingsPatch } from '../contract/settings';
import { DEFAULT_PROFILE_NAME } from '../summarizers/profiles';
import type { Config } from './schema';

/** @returns the settings patch a new conversation starts from, before its own settings. */
export function conversationDefaultsFromConfig(
  config: Pick<Config, 'compaction' | 'summarizer' | 'summarizerProfiles'>
): SettingsPatch {
  const { model, budget, triggerRatio, policy, maxMessageBytes } = config.compaction;
  const name = config.summarizer.profile;
  const mode = name === DEFAULT_PROFILE_NAME ? config.summarizer.mode : config.summarizerProfiles[name]?.mode;
  return {
    // A conversation naming no profile is folded inline by the workflow, which assumes the default profile is the
    // offline digest: a model default is named, so its folds run in the background and prepare never waits for it.
    ...(mode !== undefined && mode !== 'extractive' ? { summarizer: { profile: name } } : {}),
    model,
    budget,
    triggerRatio,
    // The schema's enum values are the settings' own (checked again by mergeSettings in the workflow).
    policy: policy as KeepPolicy,
    maxMessageBytes,
  };
}
