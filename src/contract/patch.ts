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
 * the caller already holds unchanged become `copy` ranges, anything else is inserted literally.
 * @returns the segments; their total size is O(changed messages + number of runs).
 */
export function diffContext<E extends EntryKey & { raw: unknown }>(
  before: readonly EntryKey[],
  after: readonly E[],
  baseVersion: number,
  version: number
): ContextPatch {
  const position = new Map<string, number>();
  before.forEach((e, i) => position.set(`${e.uid}@${e.rev}`, i));
  const segments: ContextPatch['segments'] = [];
  for (const entry of after) {
    const at = position.get(`${entry.uid}@${entry.rev}`);
    const last = segments[segments.length - 1];
    if (at !== undefined) {
      if (last && 'copy' in last && last.copy[1] === at) last.copy[1] = at + 1;
      else segments.push({ copy: [at, at + 1] });
    } else if (last && 'insert' in last) {
      last.insert.push(entry.raw);
    } else {
      segments.push({ insert: [entry.raw] });
    }
  }
  return { baseVersion, version, segments };
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
