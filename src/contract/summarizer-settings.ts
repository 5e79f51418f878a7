/**
 * A conversation's summarizer settings: a profile *name* (the worker's configuration says what it means) and the two
 * harmless tunings. Endpoints, models and key sources are never conversation settings, so nothing a caller sends can
 * point the worker at a URL or a file: a patch naming an endpoint field (`baseURL`, `apiKeyEnv`, …) is refused with
 * a message saying to choose a profile.
 */
import { unknownKeyMessage } from '../core/input/known-keys';

/** What a profile name may look like (checked in conversation settings and the worker's configuration alike). */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Summarizer settings of a conversation (non-secret, plain JSON). */
export interface SummarizerSettings {
  /** A profile configured on the worker (temporal.yaml); '' = the worker's default profile. @default '' */
  profile: string;
  /** Cap on summary output tokens; 0 = min(budget/2, 8192). The profile's cap still applies. @default 0 */
  maxOutputTokens: number;
  /** Extra instructions for the model modes (at most 4000 characters). @default '' */
  instructions: string;
}

/** The fields a conversation may set. */
const TUNABLE: readonly string[] = ['profile', 'maxOutputTokens', 'instructions'];

/**
 * Whether folds of these settings run the offline digest (applied inline rather than in the background): the
 * worker's default profile is assumed offline (its shipped default).
 * @returns true for the offline digest.
 */
export function offlineSummarizer(s: SummarizerSettings): boolean {
  return s.profile === '';
}

export const defaultSummarizerSettings: SummarizerSettings = { profile: '', maxOutputTokens: 0, instructions: '' };

/** Longest `instructions`, in characters. */
export const MAX_INSTRUCTIONS = 4000;

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
 * Checks a `summarizer` settings patch and applies it.
 * @returns the new summarizer settings.
 * @throws Error naming the bad field (the caller wraps it in its own error class).
 */
export function mergeSummarizerSettings(base: SummarizerSettings, patch: Record<string, unknown>): SummarizerSettings {
  const out = { ...base };
  for (const key of Object.keys(patch)) {
    if (LEGACY_SUMMARIZER_FIELDS.includes(key)) {
      throw new Error(
        `summarizer.${key} is not a conversation setting: the worker's temporal.yaml names summarizer endpoints, ` +
          'models and API keys as profiles (summarizerProfiles); choose one with summarizer.profile'
      );
    }
    const unknown = unknownKeyMessage({ [key]: true }, TUNABLE, 'summarizer');
    if (unknown) throw new Error(unknown);
  }
  if (patch.profile !== undefined) {
    const p = patch.profile;
    if (typeof p !== 'string' || (p !== '' && !PROFILE_NAME.test(p))) {
      throw new Error(
        `summarizer.profile must be '' (the worker's default) or a profile name of letters, digits, '.', '_' and '-' ` +
          `(at most 64), got ${JSON.stringify(p).slice(0, 80)}`
      );
    }
    out.profile = p;
  }
  if (patch.maxOutputTokens !== undefined) {
    const n = patch.maxOutputTokens;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 1_000_000) {
      throw new Error(`summarizer.maxOutputTokens must be an integer from 0 to 1000000, got ${JSON.stringify(n)}`);
    }
    out.maxOutputTokens = n;
  }
  if (patch.instructions !== undefined) {
    const text = patch.instructions;
    if (typeof text !== 'string') throw new Error(`summarizer.instructions must be a string, got ${typeof text}`);
    if (text.length > MAX_INSTRUCTIONS) {
      throw new Error(`summarizer.instructions must be at most ${MAX_INSTRUCTIONS} characters, got ${text.length}`);
    }
    out.instructions = text;
  }
  return out;
}
