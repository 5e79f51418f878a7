/**
 * `extractive` mode, the offline default: the summary is written by code (no network, deterministic) around the state
 * ledger, within a hard cap that also keeps it smaller than what it folds; a summary rejected anyway is rebuilt once at
 * half the caps, then the fold fails unfolded.
 */
import type { Transcript } from '../core/messages/types';
import { writeDigest } from './extractive/digest';
import { digestCap, summaryCap } from './limits';
import type { Candidate } from './attempt-loop';
import type { SummarizeRequest, SummarizerConfig, TextCounter } from './types';

/**
 * Makes one extractive attempt; attempt 2 halves the cap.
 *
 * @returns the candidate (no usage, no response id; output type `extractive`) and the merged ledger it printed
 */
export function extractiveAttempt(
  config: SummarizerConfig,
  req: SummarizeRequest,
  transcript: Transcript,
  counter: TextCounter,
  attempt: number
): Candidate {
  const half = (n: number): number => Math.max(1, Math.floor(n / (attempt > 1 ? 2 : 1)));
  const { text, ledger } = writeDigest(transcript.items, {
    maxTokens: half(summaryCap(req.budget, req.foldedTokens)),
    narrativeTokens: half(digestCap(config, req.budget, req.foldedTokens)),
    // The task stays verbatim up to 40% of the summary's usual size; a longer one is clipped with a pointer to it.
    taskTokens: half(
      config.extractive?.userTokens ?? Math.floor(0.4 * digestCap(config, req.budget, req.foldedTokens))
    ),
    ...(config.extractive?.actionArgClip !== undefined ? { actionArgClip: config.extractive.actionArgClip } : {}),
    ...(req.seqs ? { seqs: req.seqs } : {}),
    ...(req.focus ? { focus: req.focus } : {}),
    ...(req.ledger ? { state: req.ledger } : {}),
    count: (s) => counter.countText(s),
  });
  return { text, outputTypes: ['extractive'], ledger };
}
