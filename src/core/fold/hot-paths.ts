/**
 * Hot paths: files the agent keeps re-reading. Evicting such a file's read only makes the agent read it again, so
 * eviction keeps the latest read of a hot path verbatim. A path read at least twice in one turn gains that many
 * points; every turn halves all scores, so a path cools down when the agent stops reading it; the set is capped. The
 * state is plain JSON data, carried by the workflow from turn to turn.
 */
import type { Transcript } from '../messages/types';
import { pointerFor } from './pointer';

/** Score at which a path counts as hot. */
export const HOT_PATH_SCORE = 2;
/** Most paths remembered; the lowest scores go first. */
export const HOT_PATHS_CAP = 12;
/** A score that has decayed below this is forgotten (it would need two fresh reads to matter again anyway). */
const FORGET_BELOW = 0.5;

/** Hot-path scores, highest first (ties by path), at most {@link HOT_PATHS_CAP} entries. */
export interface HotPaths {
  scores: { path: string; score: number }[];
}

/**
 * The empty state.
 * @returns a state with no scores.
 */
export function emptyHotPaths(): HotPaths {
  return { scores: [] };
}

/**
 * Advances the state by one turn: every score halves, then each path read at least twice in this turn gains its read
 * count. Entries that decayed below 0.5 are dropped, and only the {@link HOT_PATHS_CAP} highest scores are kept.
 * @param reads the paths the turn read, one entry per read (see {@link readsIn}).
 * @returns the new state; the old one is not modified.
 */
export function noteTurn(state: HotPaths, reads: readonly string[]): HotPaths {
  const scores = new Map<string, number>();
  for (const { path, score } of state.scores) scores.set(path, score / 2);
  const counts = new Map<string, number>();
  for (const path of reads) counts.set(path, (counts.get(path) ?? 0) + 1);
  for (const [path, count] of counts) if (count >= 2) scores.set(path, (scores.get(path) ?? 0) + count);
  const kept = [...scores]
    .filter(([, score]) => score >= FORGET_BELOW)
    .map(([path, score]) => ({ path, score }))
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, HOT_PATHS_CAP);
  return { scores: kept };
}

/**
 * Whether a path is hot now.
 * @returns true when its score is at least {@link HOT_PATH_SCORE}.
 */
export function isHot(state: HotPaths | undefined, path: string): boolean {
  return (state?.scores.find((s) => s.path === path)?.score ?? 0) >= HOT_PATH_SCORE;
}

/**
 * The file paths read by the tool calls of items `[from, to)`, one entry per read, in order, for {@link noteTurn}.
 * A call counts when its tool reads a file (see `pointerFor`), whether or not its result is in the transcript yet.
 * @param from first item of the turn. @default 0
 * @param to end of the turn (exclusive). @default the transcript's length
 * @returns the paths.
 */
export function readsIn(transcript: Transcript, from = 0, to = transcript.items.length): string[] {
  const paths: string[] = [];
  for (const item of transcript.items.slice(from, to)) {
    for (const call of item.calls) {
      const p = pointerFor(call);
      if (p.kind === 'file') paths.push(p.path);
    }
  }
  return paths;
}
