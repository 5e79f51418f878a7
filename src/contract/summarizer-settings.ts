/**
 * A conversation's summarizer settings: a profile *name* (the worker's configuration says what it means) and the two
 * harmless tunings. Endpoints, models and key sources are never conversation settings, so nothing a caller sends can
 * point the worker at a URL or a file. Conversations stored before profiles carried `mode`, `model`, `baseURL`,
 * `apiKeyEnv`, `apiKeyFile` and `timeoutMs`: those fields are dropped and the conversation uses the worker's default
 * profile from its next fold on (its `maxOutputTokens` is kept).
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
  /**
   * Kept only from conversations stored before profiles (their runs must replay as recorded: the fold path depends
   * on it); never accepted from a caller in a new run. `extractive` keeps the offline digest; other values are
   * ignored by the worker, which uses the profile.
   */
  mode?: 'extractive' | 'chat' | 'responses' | 'compact';
}

/** The fields a conversation may set. */
const TUNABLE: readonly string[] = ['profile', 'maxOutputTokens', 'instructions'];

const MODES: readonly string[] = ['extractive', 'chat', 'responses', 'compact'];

/**
 * Whether folds of these settings run the offline digest (applied inline rather than in the background): a stored
 * pre-profile `mode`, else the worker's default profile is assumed offline (its shipped default).
 * @returns true for the offline digest.
 */
export function offlineSummarizer(s: SummarizerSettings): boolean {
  return (s.mode ?? (s.profile === '' ? 'extractive' : 'model')) === 'extractive';
}

export const defaultSummarizerSettings: SummarizerSettings = { profile: '', maxOutputTokens: 0, instructions: '' };

/** Longest `instructions`, in characters. */
export const MAX_INSTRUCTIONS = 4000;

/** The free-form fields of conversations stored before profiles. */
export const LEGACY_SUMMARIZER_FIELDS: readonly string[] = [
  'mode',
  'model',
  'baseURL',
  'apiKeyEnv',
  'apiKeyFile',
  'timeoutMs',
];

/**
 * What a patch carrying the pre-profile fields gets: `reject` (new runs: the caller is told what to send instead) or
 * `map` (runs started before profiles existed, which must replay as recorded: the fields are dropped).
 */
export type LegacySummarizerPolicy = 'reject' | 'map';

/**
 * Checks a `summarizer` settings patch and applies it.
 * @returns the new summarizer settings.
 * @throws Error naming the bad field (the caller wraps it in its own error class).
 */
export function mergeSummarizerSettings(
  base: SummarizerSettings,
  patch: Record<string, unknown>,
  legacy: LegacySummarizerPolicy = 'reject'
): SummarizerSettings {
  const out = { ...base };
  for (const key of Object.keys(patch)) {
    if (LEGACY_SUMMARIZER_FIELDS.includes(key)) {
      if (legacy === 'map') {
        if (key === 'mode' && MODES.includes(patch.mode as string)) out.mode = patch.mode as SummarizerSettings['mode'];
        continue;
      }
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

/**
 * Summarizer settings as stored by any version (carried across continue-as-new): the pre-profile fields are dropped,
 * anything malformed falls back to its default.
 * @returns settings of the current shape.
 */
export function storedSummarizerSettings(stored: unknown): SummarizerSettings {
  if (typeof stored !== 'object' || stored === null) return { ...defaultSummarizerSettings };
  const s = stored as Record<string, unknown>;
  const profile = typeof s.profile === 'string' && PROFILE_NAME.test(s.profile) ? s.profile : '';
  const max = s.maxOutputTokens;
  const instructions = typeof s.instructions === 'string' ? s.instructions.slice(0, MAX_INSTRUCTIONS) : '';
  return {
    profile,
    maxOutputTokens: typeof max === 'number' && Number.isInteger(max) && max > 0 && max <= 1_000_000 ? max : 0,
    instructions,
    ...(typeof s.mode === 'string' && MODES.includes(s.mode) ? { mode: s.mode as SummarizerSettings['mode'] } : {}),
  };
}
