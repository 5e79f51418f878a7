/**
 * `planFold`: decide whether to fold and where. Trigger → policy → shared safety rules → keep-verbatim selector and filter → min-fold.
 * Pure and deterministic; indices are into the caller's array.
 */
import { minFoldDecline } from './min-fold';
import { resolveOptions, PlanOptionsError, type ResolvedOptions } from './options';
import { POLICIES } from './policies';
import { safeAtOrBefore } from './safe-cut';
import { selectWith } from './selector';
import { expandToGroups, policyContext } from './context';
import { triggerReason, triggerThreshold } from './trigger';
import type { FoldPlan, PlanInput } from './types';

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) out.push(i);
  return out;
}
const sum = (tokens: readonly number[], idx: readonly number[]): number => idx.reduce((a, i) => a + tokens[i]!, 0);

/** A plan that leaves the transcript as it is. */
function decline(n: number, o: ResolvedOptions, total: number, threshold: number, reason: string): FoldPlan {
  const all = range(0, n);
  return {
    fold: false,
    kind: 'none',
    reason,
    policy: o.policy,
    tokens: total,
    threshold,
    split: 0,
    summarize: [],
    keep: all,
    instructions: [],
    pinned: [],
    tail: all,
    dropped: [],
    foldedTokens: 0,
    keptTokens: total,
  };
}

/**
 * Decides what a fold would summarise and keep.
 * @returns a plan with `fold: true` and the index lists, or `fold: false` with the reason (under the trigger, too few
 *   items, nothing summarisable, no safe cut, every folded item filtered, under the minimum fold). With
 *   `policy: 'rounds', roundsMode: 'truncate'` a plan of kind `truncate` lists the items to drop without a summary.
 * @throws PlanOptionsError on bad options, or when `tokens` does not have one non-negative entry per item.
 */
export function planFold(input: PlanInput): FoldPlan {
  const o = resolveOptions(input.options);
  const items = input.transcript.items;
  const n = items.length;
  const { tokens } = input;
  if (tokens.length !== n) throw new PlanOptionsError(`tokens has ${tokens.length} entries for ${n} items`);
  const badCount = tokens.findIndex((t) => !Number.isFinite(t) || t < 0);
  if (badCount !== -1)
    throw new PlanOptionsError(`tokens[${badCount}] must be a non-negative number, got ${tokens[badCount]}`);
  const fixed = input.fixedTokens ?? 0;
  const total = tokens.reduce((a, b) => a + b, 0) + fixed;
  const threshold = triggerThreshold(o.budget, o.triggerRatio);
  const no = (reason: string): FoldPlan => decline(n, o, total, threshold, reason);

  const notYet = triggerReason(o, total, n);
  if (notYet) return no(notYet);

  // The keep-verbatim selector (`pin`: the option and the predicate) and the filter.
  const isKeptVerbatim = selectWith(o.pin, input.predicates?.pin);
  const isFiltered = selectWith(o.filter, input.predicates?.filter);
  const selectedVerbatim = expandToGroups(items, (it) => isKeptVerbatim(it) && !isFiltered(it));
  const ctx = policyContext(items, tokens, o, fixed, selectedVerbatim);
  const decision = POLICIES[o.policy](ctx);
  if (decision.kind === 'decline') return no(decision.reason);

  const split = safeAtOrBefore(ctx.safe, decision.split);
  if (split <= ctx.firstBody) {
    return no(`${decision.reason}; but nothing before the cut can be summarised (only instructions, or no safe cut)`);
  }
  const instructions = items.filter((it) => it.role === 'instructions').map((it) => it.index);
  const head = range(0, split).filter((i) => items[i]!.role !== 'instructions');
  const tail = range(split, n).filter((i) => items[i]!.role !== 'instructions');
  const verbatim = new Set(selectedVerbatim);
  if (decision.kind === 'cut' && decision.verbatimOpener !== undefined && decision.verbatimOpener < split) {
    for (const i of expandToGroups(items, (it) => it.index === decision.verbatimOpener)) verbatim.add(i);
  }
  // `pinned` is the plan's (and the fold record's) name for the folded part's items kept verbatim.
  const pinned = head.filter((i) => verbatim.has(i));
  const dropped = head.filter((i) => !verbatim.has(i));
  const keep = [...instructions, ...pinned, ...tail];
  const keptTokens = sum(tokens, keep) + fixed;
  const moved = split === decision.split ? '' : ` (moved from ${decision.split} to the nearest safe cut)`;
  const why = o.policy === 'rounds' ? '' : `${total} tokens reached the trigger of ${threshold}; `;
  const reason = `${why}${decision.reason}; cut at item ${split}${moved}`;
  const base = {
    reason,
    policy: o.policy,
    tokens: total,
    threshold,
    split,
    keep,
    instructions,
    pinned,
    tail,
    dropped,
    keptTokens,
    ...(decision.kind === 'cut' && decision.carriedRoomTokens !== undefined
      ? { carriedRoomTokens: decision.carriedRoomTokens }
      : {}),
  };

  if (decision.kind === 'truncate') {
    const first = items[[...pinned, ...tail][0] ?? -1];
    if (input.transcript.format === 'anthropic' && first && first.role !== 'user' && first.role !== 'summary') {
      // With no summary in front, the context would open with this item; the Messages API wants a user turn first.
      return no(`${decision.reason}; but the truncated context would start with a ${first.role} item, not a user turn`);
    }
    return { ...base, fold: false, kind: 'truncate', summarize: [], foldedTokens: 0 };
  }
  const summarize = head.filter((i) => !isFiltered(items[i]!));
  if (summarize.length === 0) return no(`${decision.reason}; but every item before the cut is filtered out`);
  const foldedTokens = sum(tokens, summarize);
  const small = minFoldDecline(foldedTokens, o.minFoldTokens);
  if (small) return no(`${decision.reason}; but ${small}`);
  return { ...base, fold: true, kind: 'fold', summarize, foldedTokens };
}
