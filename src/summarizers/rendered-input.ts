import { buildRenderedRequest, type RenderedRequest } from '../core/fold/summary-request';
import type { Transcript } from '../core/messages/types';
import { requestInput } from './request-input';
import type { SummarizeRequest, SummarizerConfig } from './types';

/**
 * The request of the `anthropic` and `gemini` modes: the head always travels rendered (the caller's elements are in
 * another API's shape), the agent's system prompt apart from it.
 *
 * @returns the system text (when it may lead) and the one user text
 */
export function renderedInput(
  config: SummarizerConfig,
  req: SummarizeRequest,
  transcript: Transcript
): RenderedRequest {
  return buildRenderedRequest(requestInput({ ...config, headStyle: 'rendered' }, req, transcript, 'rendered'));
}
