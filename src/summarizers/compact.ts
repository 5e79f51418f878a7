/**
 * `compact` mode: the OpenAI compaction endpoint. Its output (the user messages as it returns them, then one
 * opaque compaction item) is spliced in as the folded part. Only a Responses transcript can hold that item.
 */
import type OpenAI from 'openai';
import { contentText } from '../core/messages/text';
import type { MessageFormat } from '../core/messages/types';
import { requireFormat } from './require-format';
import type { Candidate } from './attempt-loop';
import type { AttemptInput } from './attempt-input';
import { responsesUsage } from './usage';
import type { TextCounter } from './types';

/**
 * Makes one compaction attempt.
 *
 * @returns the candidate: `items` = the returned output, `text` = its readable user messages (for retention)
 * @throws SummarizerConfigError when the transcript is not in the Responses format; the client's errors otherwise
 */
export async function compactAttempt(
  client: OpenAI,
  { config, req, transcript, counter, ctx }: AttemptInput
): Promise<Candidate> {
  requireFormat(transcript, 'responses', 'compact mode needs a Responses transcript', 'its compaction item');
  const body = {
    model: config.model ?? req.model,
    input: transcript.items.filter((i) => i.role !== 'instructions').map((i) => i.raw),
    ...(req.systemPrompt && config.shareSystemPrompt !== false ? { instructions: req.systemPrompt } : {}),
  } as unknown as OpenAI.Responses.ResponseCompactParams;
  const res = await client.responses.compact(body, ctx.signal ? { signal: ctx.signal } : {});
  const output = (res.output ?? []) as unknown as Record<string, unknown>[];
  const usage = responsesUsage(res.usage);
  const readable = output
    .filter((o) => o.type !== 'compaction')
    .map((o) => contentText(o.content))
    .join('\n');
  return {
    text: readable,
    items: output,
    summaryTokens: measureItems(output, counter, 'responses'),
    ...(usage ? { usage } : {}),
    ...(res.id ? { responseId: res.id } : {}),
    outputTypes: output.map((o) => (typeof o.type === 'string' ? o.type : 'message')),
  };
}

/**
 * Prices spliced-in items with the conversation's counter.
 * @returns their tokens; by their JSON (4 characters a token) when the counter cannot read them
 */
export function measureItems(output: unknown[], counter: TextCounter, format: MessageFormat): number {
  try {
    return counter.countMessages(output, format).reduce((a, b) => a + b, 0);
  } catch {
    // An item the counter cannot read (a new output type): price it by its JSON, 4 characters a token.
    return Math.ceil(JSON.stringify(output).length / 4);
  }
}
