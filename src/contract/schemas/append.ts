/**
 * The `append`/`prepare` input (the `append` signal's too): its type, the check of its shape, and its JSON Schema,
 * from one schema. What the shape cannot say (a writer needs a `clientSeq`, tool definitions, nesting, size, the
 * messages' own rules) is checked after it by `appendShapeProblem` (src/workflows/validate-append.ts).
 */
import * as z from 'zod/v4-mini';
import { count, exactly, says } from './leaves';
import { writerId } from './writer-seq';

/** Most messages one append may carry. */
export const MAX_APPEND_MESSAGES = 10_000;

const optionalCount = z.optional(z.nullable(count()));

/** Usage a provider reported (`inputTokens` required; the others optional, `null` read as absent). */
const usage = exactly(
  {
    inputTokens: count(),
    outputTokens: optionalCount,
    totalTokens: optionalCount,
    cachedInputTokens: optionalCount,
    reasoningTokens: optionalCount,
  },
  'must be an object {inputTokens, outputTokens?, totalTokens?, cachedInputTokens?, reasoningTokens?}'
);

/** Provider usage reported for a context this workflow produced (its `version`). */
export const reportedFields = exactly({ version: count(), usage }, 'must be an object {version, usage: {inputTokens}}');

/** Input of the `append` and `prepare` updates and the `append` signal. */
export const appendFields = exactly(
  {
    /** New messages, in the conversation's format. */
    messages: z
      .array(z.unknown(), says('must be an array'))
      .check(z.maxLength(MAX_APPEND_MESSAGES, says(`must hold at most ${MAX_APPEND_MESSAGES} messages`))),
    /**
     * The caller's sequence number for this append, increasing by one per append. A retried append with a number
     * already seen is not applied twice. Optional; messages that carry ids are also de-duplicated by id.
     */
    clientSeq: z.optional(count()),
    /**
     * The writer (one per client instance) this `clientSeq` belongs to: with it, `clientSeq` numbers this writer's
     * appends from 0, a retry reuses its number, and an append that skips ahead is refused with `OutOfOrder`.
     * Without it, `clientSeq` is one sequence shared by every caller (the older scheme, kept working).
     */
    writer: z.optional(writerId),
    /** Usage the provider reported for the last context sent (calibrates the token estimate). */
    reported: z.optional(reportedFields),
    /**
     * The tool definitions the agent sends with its requests from now on; replaces `settings.tools` (send them when
     * they change). At most 128 tools and 128 KiB of JSON.
     */
    tools: z.optional(z.array(z.unknown(), says('must be an array of tool definitions'))),
    /** The protocol version the caller speaks (`PROTOCOL_VERSION`); absent means the current one. */
    protocol: z.optional(z.number()),
  },
  'must be an object {messages, clientSeq?, writer?, reported?, tools?, protocol?}'
);

export type AppendInput = z.infer<typeof appendFields>;
export type ReportedUsage = z.infer<typeof reportedFields>;
