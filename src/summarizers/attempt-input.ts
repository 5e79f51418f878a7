/**
 * What every model mode's attempt is given, in one shape, so that `createSummarizer` builds it once and each mode
 * reads only the fields it needs.
 */
import type { Transcript } from '../core/messages/types';
import type { SummarizeContext, SummarizeRequest, SummarizerConfig, TextCounter } from './types';

/** One attempt's input: the profile, the request, its normalized transcript, the model's counter, the call context. */
export interface AttemptInput {
  config: SummarizerConfig;
  req: SummarizeRequest;
  transcript: Transcript;
  /** Prices returned items (the compaction modes measure what they splice in). */
  counter: TextCounter;
  ctx: SummarizeContext;
}
