/**
 * Summarizer profiles: the worker's configuration names every endpoint, model and API-key source a summary call may
 * use, each under a profile name. A conversation only picks a profile by name and tunes harmless fields (the output
 * limit, extra instructions), so no setting a caller can send makes the worker contact a URL or read a file that its
 * own configuration did not name.
 */
import { SummarizerConfigError } from './classify-error';
import type { SummarizerConfig } from './types';

/** What a conversation (or an embedded compactor) may choose: plain JSON, travels in activity inputs. */
export interface SummarizerChoice {
  /** A profile configured on the worker; '' or absent = the worker's default profile. */
  profile?: string;
  /** Cap on summary output tokens; 0 or absent = the default min(budget/2, 8192). Never above the profile's cap. */
  maxOutputTokens?: number;
  /** Extra instructions appended to the summary request of the model modes ('' = none). */
  instructions?: string;
  /** `extractive` forces the offline digest (fallback folds; it contacts nothing). Other values are ignored. */
  mode?: string;
}

/** The profiles a worker serves. */
export interface SummarizerProfiles {
  /** The profile of conversations that name none. */
  defaultProfile: string;
  /** Name → configuration (mode, model, baseURL, key source, timeout, output cap). */
  profiles: ReadonlyMap<string, SummarizerConfig>;
}

/** Name of the profile the `summarizer:` section of temporal.yaml defines. */
export const DEFAULT_PROFILE_NAME = 'default';

/** The profiles of a worker configured with nothing: one offline (extractive) default profile. */
export function builtinProfiles(): SummarizerProfiles {
  return { defaultProfile: DEFAULT_PROFILE_NAME, profiles: new Map([[DEFAULT_PROFILE_NAME, { mode: 'extractive' }]]) };
}

/** Failure type of a summary call that names a profile the worker does not have. */
export const UNKNOWN_PROFILE = 'UnknownSummarizerProfile';

/**
 * Looks a profile up by name (own entries only: `__proto__` or `toString` are not profiles).
 * @returns the profile's configuration, or `undefined` with the message to show when there is none.
 */
export function findProfile(
  set: SummarizerProfiles,
  name: string | undefined
): { config: SummarizerConfig; name: string } | { config: undefined; message: string } {
  const wanted = name === undefined || name === '' ? set.defaultProfile : name;
  const config = set.profiles.get(wanted);
  if (config) return { config, name: wanted };
  const known = [...set.profiles.keys()].join(', ');
  return {
    config: undefined,
    message: `summarizer profile '${String(wanted).slice(0, 80)}' is not configured on this worker (profiles: ${known})`,
  };
}

/**
 * The configuration of one summary call: the profile's, with the conversation's harmless tuning applied. Any other
 * field of `choice` (an old conversation's `baseURL`, `apiKeyEnv`, `apiKeyFile`, `mode`, `model`) is ignored.
 * @returns the summarizer configuration to use.
 * @throws SummarizerConfigError (type {@link UNKNOWN_PROFILE}, not retried) when the profile is not configured.
 */
export function resolveProfile(set: SummarizerProfiles, choice: SummarizerChoice | undefined): SummarizerConfig {
  const offline = choice?.mode === 'extractive';
  const found = offline
    ? { config: { mode: 'extractive' as const }, name: 'offline' }
    : findProfile(set, typeof choice?.profile === 'string' ? choice.profile : undefined);
  if (!found.config) throw new SummarizerConfigError(found.message, UNKNOWN_PROFILE);
  const asked = choice?.maxOutputTokens;
  const instructions = typeof choice?.instructions === 'string' ? choice.instructions.trim() : '';
  return {
    ...found.config,
    ...(typeof asked === 'number' && Number.isInteger(asked) && asked > 0 ? { maxOutputTokens: asked } : {}),
    ...(instructions !== '' ? { instructions } : {}),
  };
}
