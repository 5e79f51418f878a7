/**
 * The `countTokens` activity: a batch of messages in, per-message counts out. Pure CPU with no I/O and a few
 * milliseconds per batch, so the workflow may run it as a local activity.
 */
import { ApplicationFailure } from '@temporalio/common';
import { formatNamed, MESSAGE_FORMATS } from '../core/messages/format-name';
import type { MessageFormat } from '../core/messages/types';
import { countersByModel, type TokenCounter } from '../tokens';
import { TokenInputError } from '../tokens/errors';

/** Input of {@link CountTokensActivity}. */
export interface CountTokensInput {
  model: string;
  format: MessageFormat;
  messages: unknown[];
  /** Tool schemas sent with the request, priced per cookbook §7. */
  tools?: unknown[];
}

/** Output of {@link CountTokensActivity}. */
export interface CountTokensResult {
  /** Per message, including its wire overhead, in input order. */
  counts: number[];
  /** Tool schemas (0 without tools). */
  toolTokens: number;
  /** Tokens priming the reply, once per request. */
  replyPriming: number;
  encoding: string;
  /** False when the model's vocabulary is not shipped (counts are o200k_base × safety factor). */
  exact: boolean;
}

/** The activity function. */
export type CountTokensActivity = (input: CountTokensInput) => Promise<CountTokensResult>;

/** Error type of the non-retryable failure raised for invalid input (retrying cannot fix it). */
export const INVALID_COUNT_INPUT = 'InvalidCountTokensInput';

/**
 * Builds the activity.
 * @param deps.counterFor creates the counter for a model (called once per model). @default createTokenCounter({ model })
 * @returns `countTokens`, which throws a non-retryable ApplicationFailure of type {@link INVALID_COUNT_INPUT} naming
 *   the offending field when the input is malformed.
 */
export function createCountTokensActivity(
  deps: { counterFor?: (model: string) => TokenCounter } = {}
): CountTokensActivity {
  const counterFor = countersByModel(deps.counterFor);

  // Async only because activities return promises; the work is synchronous CPU.
  // eslint-disable-next-line @typescript-eslint/require-await
  return async function countTokens(input: CountTokensInput): Promise<CountTokensResult> {
    validate(input);
    const counter = counterFor(input.model);
    try {
      return {
        counts: counter.countMessages(input.messages, input.format),
        toolTokens: input.tools ? counter.countTools(input.tools) : 0,
        replyPriming: counter.replyPriming,
        encoding: counter.encoding,
        exact: counter.exact,
      };
    } catch (err) {
      if (err instanceof TokenInputError) throw invalid(err.message);
      throw err;
    }
  };
}

function invalid(message: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`countTokens: ${message}`, INVALID_COUNT_INPUT);
}

function validate(input: unknown): asserts input is CountTokensInput {
  if (typeof input !== 'object' || input === null) throw invalid('input must be an object');
  const i = input as Record<string, unknown>;
  if (typeof i.model !== 'string' || i.model.trim() === '') throw invalid("'model' must be a non-empty string");
  if (!formatNamed(i.format)) {
    throw invalid(`'format' must be one of ${MESSAGE_FORMATS.join(', ')}, got ${JSON.stringify(i.format)}`);
  }
  if (!Array.isArray(i.messages)) throw invalid("'messages' must be an array");
  if (i.tools !== undefined && !Array.isArray(i.tools)) throw invalid("'tools' must be an array when given");
}
