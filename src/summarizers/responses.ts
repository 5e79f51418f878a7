/**
 * `responses` mode: `responses.create` with `store: false`, no tools, reasoning items left out of the
 * input, output limited to min(budget/2, 8192) unless configured.
 */
import type OpenAI from 'openai';
import { buildResponsesRequest } from '../core/fold/summary-request';
import { SummarizerCallError } from './classify-error';
import { maxOutputTokens } from './limits';
import { responsesRequestFields } from './request-fields';
import { requestInput } from './request-input';
import type { Candidate } from './attempt-loop';
import type { AttemptInput } from './attempt-input';
import { responsesUsage } from './usage';

interface OutputItemLike {
  type?: string;
  content?: { type?: string; text?: string }[];
}

/**
 * The text of a response's `message` output items.
 *
 * @returns the concatenated `output_text` parts
 */
export function outputText(output: readonly OutputItemLike[]): string {
  return output
    .filter((o) => o.type === 'message')
    .flatMap((o) => o.content ?? [])
    .filter((p) => p.type === 'output_text' && typeof p.text === 'string')
    .map((p) => p.text)
    .join('');
}

/**
 * Makes one Responses summary attempt.
 *
 * @returns the candidate
 * @throws SummarizerCallError when the response status is `failed`; the client's errors otherwise
 */
export async function responsesAttempt(
  client: OpenAI,
  { config, req, transcript, ctx }: AttemptInput
): Promise<Candidate> {
  const content = buildResponsesRequest(requestInput(config, req, transcript, 'verbatim'));
  const limit = maxOutputTokens(config, req.budget);
  const body = {
    model: config.model ?? req.model,
    ...content,
    store: false,
    ...(limit !== undefined ? { max_output_tokens: limit } : {}),
    ...responsesRequestFields(config.request),
  } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming;
  const res = await client.responses.create(body, ctx.signal ? { signal: ctx.signal } : {});
  const output = (res.output ?? []) as OutputItemLike[];
  if (res.status === 'failed') {
    const why = res.error?.message ?? 'no reason given';
    throw new SummarizerCallError(`summary response failed: ${why}`, 'ResponseFailed', true);
  }
  const usage = responsesUsage(res.usage);
  return {
    text: outputText(output),
    ...(res.status === 'incomplete' ? { incompleteReason: res.incomplete_details?.reason ?? 'incomplete' } : {}),
    ...(usage ? { usage } : {}),
    ...(res.id ? { responseId: res.id } : {}),
    outputTypes: output.map((o) => o.type ?? 'unknown'),
  };
}
