/**
 * Context patches: how a caller's mirror becomes the new context without the workflow sending the whole transcript
 * back on every turn (which is how conversations on Temporal reach the 50 MB history limit).
 */

/**
 * How to turn the caller's mirror into the new context: concatenate the segments, where `copy: [from, to]` is a slice
 * of (mirror at `baseVersion` ++ the messages just sent) and `insert` is literal messages (a summary, a clipped
 * message). When `baseVersion` is not the mirror's version, the mirror is stale: read the `context` query instead.
 */
export interface ContextPatch {
  baseVersion: number;
  version: number;
  segments: ({ copy: [number, number] } | { insert: unknown[] })[];
}

/** Identity of one live message: `uid` names the message, `rev` counts rewrites (clipping, eviction). */
export interface EntryKey {
  uid: string;
  rev: number;
}

/**
 * Describes `after` in terms of `before` (the caller's mirror plus the messages it just sent): runs of entries that
 * the caller already holds unchanged become `copy` ranges, anything else is inserted literally. Keys are unique within
 * `before` (a uid names one message). The common prefix (on an ordinary step, all of the mirror) is compared in
 * place: the entries after it are looked up among those after it in `before`, and only an entry found nowhere there
 * (a new message, one moved back) makes the prefix be looked up too.
 * @param rawOf what an inserted entry is sent as (by default its `raw`).
 * @param omitted how many first keys of the mirror `before` leaves out because they are `after`'s first ones (the
 *   caller knows that prefix unchanged; at most `after.length`): `before` holds the keys from there on, and that
 *   prefix is not compared.
 * @returns the segments; their total size is O(changed messages + number of runs).
 */
export function diffContext<E extends EntryKey & { raw: unknown }>(
  before: readonly EntryKey[],
  after: readonly E[],
  baseVersion: number,
  version: number,
  rawOf: (entry: E) => unknown = (entry) => entry.raw,
  omitted = 0
): ContextPatch {
  const keyAt = (i: number): EntryKey => (i < omitted ? after[i]! : before[i - omitted]!);
  const beforeLength = omitted + before.length;
  const limit = Math.min(beforeLength, after.length);
  let shared = Math.min(omitted, limit);
  while (shared < limit && sameKey(keyAt(shared), after[shared]!)) shared++;
  const segments: ContextPatch['segments'] = shared > 0 ? [{ copy: [0, shared] }] : [];
  if (shared === after.length) return { baseVersion, version, segments };
  const positions = (from: number, to: number): Map<string, number> => {
    const map = new Map<string, number>();
    for (let i = from; i < to; i++) map.set(`${keyAt(i).uid}@${keyAt(i).rev}`, i);
    return map;
  };
  const position = positions(shared, beforeLength);
  // The prefix is looked up only for an entry found nowhere after it (a message moved back, or a new one).
  let inPrefix: Map<string, number> | undefined;
  for (let i = shared; i < after.length; i++) {
    const entry = after[i]!;
    const key = `${entry.uid}@${entry.rev}`;
    let at = position.get(key);
    if (at === undefined && shared > 0) at = (inPrefix ??= positions(0, shared)).get(key);
    const last = segments[segments.length - 1];
    if (at !== undefined) {
      if (last && 'copy' in last && last.copy[1] === at) last.copy[1] = at + 1;
      else segments.push({ copy: [at, at + 1] });
    } else if (last && 'insert' in last) {
      last.insert.push(rawOf(entry));
    } else {
      segments.push({ insert: [rawOf(entry)] });
    }
  }
  return { baseVersion, version, segments };
}

/** @returns whether two keys name the same revision of one message. */
export function sameKey(a: EntryKey, b: EntryKey): boolean {
  return a.uid === b.uid && a.rev === b.rev;
}

/**
 * Applies a patch to the caller's mirror plus the messages it just sent.
 * @returns the new context.
 * @throws RangeError when a copy range falls outside `base` (the mirror was not at `patch.baseVersion`).
 */
export function applyPatch(base: readonly unknown[], patch: ContextPatch): unknown[] {
  const out: unknown[] = [];
  for (const segment of patch.segments) {
    if ('copy' in segment) {
      const [from, to] = segment.copy;
      if (from < 0 || to > base.length || from > to)
        throw new RangeError(`patch copies [${from}, ${to}) of ${base.length} messages`);
      for (let i = from; i < to; i++) out.push(base[i]);
    } else {
      out.push(...segment.insert);
    }
  }
  return out;
}
