/**
 * Which BPE vocabulary a model uses. OpenAI models map to the vocabulary they were trained with; every other model
 * (Claude, Llama, Gemini, Mistral, …) has a vocabulary we do not ship, so it is counted with the default vocabulary
 * and scaled by a safety factor, and the result says `exact: false`.
 */

/** The vocabularies this package counts with (both ship with `gpt-tokenizer`). */
export type EncodingName = 'o200k_base' | 'cl100k_base';

/** The vocabulary used for models we do not recognise: the newest OpenAI vocabulary, as in the cookbook §6 default. */
export const DEFAULT_ENCODING: EncodingName = 'o200k_base';

/**
 * Multiplier applied to counts for models whose vocabulary we do not ship. Other vocabularies differ from o200k_base
 * by roughly ±10–20% on English and code; 1.1 errs towards over-counting, which makes a fold fire slightly early
 * rather than letting a context overflow. Calibration against the provider's reported usage corrects the rest.
 */
export const DEFAULT_SAFETY_FACTOR = 1.1;

/** The vocabulary chosen for a model and whether counts with it are exact. */
export interface EncodingChoice {
  encoding: EncodingName;
  /** True when `encoding` is the model's own vocabulary. */
  exact: boolean;
  /** Multiplier for text counts: 1 when exact, otherwise the configured safety factor. */
  safetyFactor: number;
}

// Families are matched by prefix after lower-casing and stripping a provider prefix ("openai/gpt-4o", "azure/…").
// Order matters: the o200k families are tested first because "gpt-4o" and "gpt-4.1" also start with "gpt-4".
// Sources: OpenAI model pages and tiktoken's model.py MODEL_PREFIX_TO_ENCODING (gpt-4o-, gpt-4.1-, gpt-4.5-, gpt-5-,
// o1-, o3-, o4-mini-, chatgpt-4o- → o200k_base; gpt-4-, gpt-3.5-turbo-, gpt-35-turbo- → cl100k_base).
const O200K = /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4|codex-|computer-use|omni-moderation)/;
const CL100K = /^(gpt-4|gpt-3\.5|gpt-35|text-embedding-3|text-embedding-ada-002)/;

/**
 * Chooses the vocabulary for `model`.
 * @param model A model id as sent to the provider, optionally prefixed with `provider/`.
 * @param safetyFactor Multiplier for models whose vocabulary we do not ship. @default DEFAULT_SAFETY_FACTOR (1.1)
 * @returns `o200k_base` for the gpt-4o, gpt-4.1, gpt-4.5, gpt-5, o1/o3/o4 and chatgpt-4o families; `cl100k_base`
 *   for gpt-4 (non-o), gpt-4-turbo and gpt-3.5-turbo; otherwise `o200k_base` with `exact: false`.
 * @throws RangeError when `safetyFactor` is not a finite number ≥ 1.
 */
export function encodingForModel(model: string, safetyFactor: number = DEFAULT_SAFETY_FACTOR): EncodingChoice {
  if (!Number.isFinite(safetyFactor) || safetyFactor < 1) {
    throw new RangeError(`safetyFactor must be a finite number >= 1, got ${safetyFactor}`);
  }
  const id = model.trim().toLowerCase().replace(/^.*\//, '');
  if (O200K.test(id)) return { encoding: 'o200k_base', exact: true, safetyFactor: 1 };
  if (CL100K.test(id)) return { encoding: 'cl100k_base', exact: true, safetyFactor: 1 };
  return { encoding: DEFAULT_ENCODING, exact: false, safetyFactor };
}
