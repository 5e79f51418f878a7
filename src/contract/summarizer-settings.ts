/**
 * A conversation's summarizer settings: a profile *name* (the worker's configuration says what it means) and the two
 * harmless tunings. Endpoints, models and key sources are never conversation settings, so nothing a caller sends can
 * point the worker at a URL or a file: a patch naming an endpoint field (`baseURL`, `apiKeyEnv`, …) is refused with
 * a message saying to choose a profile.
 */
import { parsed } from './schemas/problem';
import { summarizerPatch } from './schemas/summarizer-settings';

export { MAX_INSTRUCTIONS, PROFILE_NAME } from './schemas/summarizer-settings';

/** Summarizer settings of a conversation (non-secret, plain JSON). */
export interface SummarizerSettings {
  /** A profile configured on the worker (temporal.yaml); '' = the worker's default profile. @default '' */
  profile: string;
  /** Cap on summary output tokens; 0 = min(budget/2, 8192). The profile's cap still applies. @default 0 */
  maxOutputTokens: number;
  /** Extra instructions for the model modes (at most 4000 characters). @default '' */
  instructions: string;
}

/**
 * Whether folds of these settings run the offline digest (applied inline rather than in the background): the
 * worker's default profile is assumed offline (its shipped default).
 * @returns true for the offline digest.
 */
export function offlineSummarizer(s: SummarizerSettings): boolean {
  return s.profile === '';
}

export const defaultSummarizerSettings: SummarizerSettings = { profile: '', maxOutputTokens: 0, instructions: '' };

/** Endpoint fields summarizer settings had before profiles: refused with a pointer to `summarizer.profile`. */
export const LEGACY_SUMMARIZER_FIELDS: readonly string[] = [
  'mode',
  'model',
  'baseURL',
  'apiKeyEnv',
  'apiKeyFile',
  'timeoutMs',
];

/**
 * Checks a `summarizer` settings patch against {@link summarizerPatch} and applies it.
 * @returns the new summarizer settings.
 * @throws Error naming the bad field (the caller wraps it in its own error class).
 */
export function mergeSummarizerSettings(base: SummarizerSettings, patch: unknown): SummarizerSettings {
  const legacy = isRecord(patch) ? Object.keys(patch).find((key) => LEGACY_SUMMARIZER_FIELDS.includes(key)) : undefined;
  if (legacy !== undefined) {
    throw new Error(
      `summarizer.${legacy} is not a conversation setting: the worker's temporal.yaml names summarizer endpoints, ` +
        'models and API keys as profiles (summarizerProfiles); choose one with summarizer.profile'
    );
  }
  const given = parsed(summarizerPatch, patch, '', (message) => new Error(message), 'summarizer');
  const out = { ...base };
  for (const [key, value] of Object.entries(given)) if (value !== undefined) Object.assign(out, { [key]: value });
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
