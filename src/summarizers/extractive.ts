/**
 * `extractive` mode, the offline default: the summary is written by code (no network, deterministic) around the state
 * ledger, within a hard cap that also keeps it smaller than what it folds; a summary rejected anyway is rebuilt once at
 * half the caps, then the fold fails unfolded.
 */
import type { Transcript } from '../core/messages/types';
import { SOFT_SHARE, writeDigest, type WrittenDigest } from './extractive/digest';
import { budgetRoom, digestCap, summaryCap } from './limits';
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
  const usual = digestCap(config, req.budget, req.foldedTokens);
  const write = (maxTokens: number): WrittenDigest =>
    writeDigest(transcript.items, {
      maxTokens: half(maxTokens),
      narrativeTokens: half(usual),
      // The task stays verbatim up to 40% of the summary's usual size; a longer one is clipped with a pointer to it.
      taskTokens: half(config.extractive?.userTokens ?? Math.floor(0.4 * usual)),
      ...(config.extractive?.actionArgClip !== undefined ? { actionArgClip: config.extractive.actionArgClip } : {}),
      ...(req.seqs ? { seqs: req.seqs } : {}),
      ...(req.focus ? { focus: req.focus } : {}),
      ...(req.ledger ? { state: req.ledger } : {}),
      // What earlier summaries carried keeps its room up to the summary's usual size at this budget, whatever the fold
      // takes in, or up to the room the plan set aside for it: past that, a fold would land above the plan's target
      // and the next one would come sooner.
      carriedSoftTokens: half(
        Math.max(Math.floor(SOFT_SHARE * digestCap(config, req.budget)), req.carriedRoomTokens ?? 0)
      ),
      count: (s) => counter.countText(s),
    });
  const cap = summaryCap(req.budget, req.foldedTokens);
  const room = budgetRoom(req.budget, req.keptTokens);
  // The summary fits what the budget leaves beside the kept part; only its must-keep part (rules, hard limits, the
  // task) may pass that, up to the usual cap, and the fold record then says the context is over budget.
  const first = write(Math.max(1, Math.min(cap, room)));
  const written = first.mustKeepLost && room < cap ? smallestWhole(write, Math.max(1, room), cap) : first;
  return { text: written.text, outputTypes: ['extractive'], ledger: written.ledger, replaced: written.replaced };
}

/**
 * The digest at the smallest cap in `(from, to]` (within a few tokens) that keeps its must-keep part, or at `to` when
 * none does.
 */
function smallestWhole(write: (maxTokens: number) => WrittenDigest, from: number, to: number): WrittenDigest {
  let best = write(to);
  if (best.mustKeepLost) return best;
  let lo = from;
  let hi = to;
  while (hi - lo > 8) {
    const mid = Math.floor((lo + hi) / 2);
    const w = write(mid);
    if (w.mustKeepLost) lo = mid;
    else [hi, best] = [mid, w];
  }
  return best;
}
