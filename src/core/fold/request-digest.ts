/**
 * The digest of a summary request: which model was asked, with which instructions, system prompt and messages. Two
 * folds with the same digest asked the same question, so `inspect --summaries` can tell a changed summary caused by
 * a changed request from one the model wrote differently.
 */
import { canonicalJson, sha256Hex } from '../hash';

/** The canonical parts of one summary request (the same for every mode, whatever its wire shape). */
export interface SummaryRequestParts {
  /** The model the summary was asked of (`extractive` for the offline digest). */
  model: string;
  /** The instructions sent after the head, extra instructions and focus included; '' when none are sent. */
  instructions: string;
  /** The system prompt leading the request; `null` when none does. */
  system: string | null;
  /** The head, in the caller's format, as the summarizer received it. */
  messages: readonly unknown[];
}

/**
 * @returns the lowercase hex SHA-256 of the canonical JSON (keys sorted) of `parts`.
 * @throws CanonicalJsonError when a message holds a value JSON cannot carry.
 */
export function summaryRequestDigest(parts: SummaryRequestParts): string {
  return sha256Hex(
    canonicalJson({
      model: parts.model,
      instructions: parts.instructions,
      system: parts.system,
      messages: parts.messages,
    })
  );
}
