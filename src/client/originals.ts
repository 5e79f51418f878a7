/**
 * Re-materialising lightened messages for the model: the live context stays under its byte budget (older heavy
 * messages carry a note naming their archived original instead of their images or long strings; past that, the
 * oldest are held as reference stubs), and a client given
 * read access to the archive puts the originals back into what it returns, so the model sees every message whole
 * while no Temporal payload carries them.
 */
import type { ConversationArchive } from '../archive/archive';
import { archiveWhere } from '../core/fold/lighten';
import { isLightenedFrom, lightenedSeqs } from '../core/fold/originals';
import { isReferenceOf } from '../core/fold/reference-stub';

/** What a client needs of the archive: range reads by sequence number (`openArchiveReader` opens one read-only). */
export type ArchiveReader = Pick<ConversationArchive, 'readRange'>;

/** Puts the archived originals of one conversation's lightened messages back in place. */
export class OriginalsReader {
  /** Originals read for the last context returned (a context holds few; older ones are dropped). */
  private cache = new Map<number, unknown>();

  /**
   * @param key the conversation's archive key (its workflow id).
   * @param conversationId the id the notes name.
   */
  constructor(
    private readonly reader: ArchiveReader,
    private readonly key: string,
    private readonly conversationId: string
  ) {}

  /**
   * @returns `messages` with every lightened message replaced by its archived original (each original read once);
   *   a message no archived original lightens to exactly (say, text quoting a note) is kept as it is.
   * @throws ArchiveError when the archive cannot be read.
   */
  async restore(messages: readonly unknown[]): Promise<unknown[]> {
    const named = messages.map((m) => lightenedSeqs(m, this.conversationId));
    const wanted = [...new Set(named.flat())];
    const originals = new Map<number, unknown>();
    const missing: number[] = [];
    for (const seq of wanted) {
      if (this.cache.has(seq)) originals.set(seq, this.cache.get(seq));
      else missing.push(seq);
    }
    // By range, one run of consecutive numbers at a time (a context held by reference names thousands in a row): a
    // number a quoted note makes up is simply absent, not an error.
    await Promise.all(
      consecutiveRuns(missing).map(async ([from, to]) => {
        for (const a of await this.reader.readRange(this.key, from, to)) originals.set(a.seq, a.message);
      })
    );
    this.cache = originals;
    return messages.map((m, i) => {
      const seq = named[i]!.find(
        (s) =>
          originals.has(s) &&
          (isLightenedFrom(m, originals.get(s), this.conversationId, s) ||
            isReferenceOf(m, originals.get(s), archiveWhere(this.conversationId, s)))
      );
      return seq === undefined ? m : originals.get(seq);
    });
  }
}

/** @returns the numbers as [first, last] runs of consecutive numbers, ascending. */
function consecutiveRuns(seqs: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const seq of [...seqs].sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last && seq === last[1] + 1) last[1] = seq;
    else runs.push([seq, seq]);
  }
  return runs;
}
