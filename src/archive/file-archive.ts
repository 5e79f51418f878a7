import { closeSync, createReadStream, existsSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { FoldRecord } from '../core/fold/fold-record';
import { ArchiveError, type ArchivedMessage, type ConversationArchive } from './archive';

/**
 * The embedded archive: two append-only JSON-lines files per conversation under `dir`:
 * `<id>.messages.jsonl` (`{"seq":n,"message":…}`) and `<id>.folds.jsonl` (fold records). Nothing is ever rewritten.
 * A worker process remembers the last sequence number it saw per conversation so an append costs O(new messages);
 * after a restart the first append re-reads the file once. Workers on several hosts need a shared folder (or another
 * `ConversationArchive` driver): an activity may run on any of them.
 */
export class FileArchive implements ConversationArchive {
  private readonly lastSeq = new Map<string, number>();
  private readonly lastFold = new Map<string, number>();
  private readonly locks = new Map<string, Promise<void>>();

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** File name stem for a conversation id; any id is safe as a file name after encoding. */
  private stem(conversationId: string): string {
    return join(this.dir, encodeURIComponent(conversationId).replace(/\./g, '%2E'));
  }

  async append(conversationId: string, startSeq: number, messages: unknown[]): Promise<void> {
    await this.serial(conversationId, async () => {
      const file = `${this.stem(conversationId)}.messages.jsonl`;
      let last = this.lastSeq.get(conversationId);
      let lead = '';
      if (last === undefined) {
        last = -1;
        for await (const entry of readLines<ArchivedMessage>(file)) last = Math.max(last, entry.seq);
        // A crash mid-write can leave a torn last line: start on a fresh line so the next record stays whole.
        lead = endsTorn(file) ? '\n' : '';
      }
      if (startSeq > last + 1) {
        throw new ArchiveError(
          `archive of ${conversationId} ends at seq ${last}; cannot append seq ${startSeq} (a gap)`
        );
      }
      const fresh = messages.slice(last + 1 - startSeq);
      if (fresh.length > 0) {
        const lines =
          lead + fresh.map((message, i) => JSON.stringify({ seq: last + 1 + i, message })).join('\n') + '\n';
        await appendFile(file, lines, 'utf8');
      }
      this.lastSeq.set(conversationId, Math.max(last, startSeq + messages.length - 1));
    });
  }

  async read(conversationId: string, seqs: number[]): Promise<ArchivedMessage[]> {
    const wanted = new Set(seqs);
    const found = new Map<number, ArchivedMessage>();
    for await (const entry of readLines<ArchivedMessage>(`${this.stem(conversationId)}.messages.jsonl`)) {
      if (wanted.has(entry.seq)) found.set(entry.seq, entry);
    }
    return seqs.map((seq) => {
      const entry = found.get(seq);
      if (!entry) throw new ArchiveError(`archive of ${conversationId} has no message with seq ${seq}`);
      return entry;
    });
  }

  async readAll(conversationId: string): Promise<ArchivedMessage[]> {
    const out: ArchivedMessage[] = [];
    for await (const entry of readLines<ArchivedMessage>(`${this.stem(conversationId)}.messages.jsonl`))
      out.push(entry);
    return out;
  }

  async recordFold(conversationId: string, record: FoldRecord): Promise<void> {
    await this.serial(conversationId, async () => {
      const file = `${this.stem(conversationId)}.folds.jsonl`;
      let last = this.lastFold.get(conversationId);
      if (last === undefined) {
        last = 0;
        for await (const r of readLines<FoldRecord>(file)) last = Math.max(last, r.number);
      }
      if (record.number > last) await appendFile(file, JSON.stringify(record) + '\n', 'utf8');
      this.lastFold.set(conversationId, Math.max(last, record.number));
    });
  }

  async folds(conversationId: string): Promise<FoldRecord[]> {
    const out: FoldRecord[] = [];
    for await (const r of readLines<FoldRecord>(`${this.stem(conversationId)}.folds.jsonl`)) out.push(r);
    return out;
  }

  /** Runs writes to one conversation one at a time (two activities may write the same files at once). */
  private async serial(conversationId: string, fn: () => Promise<void>): Promise<void> {
    const before = this.locks.get(conversationId) ?? Promise.resolve();
    const run = before.then(fn, fn);
    this.locks.set(
      conversationId,
      run.catch(() => {})
    );
    await run;
  }
}

async function* readLines<T>(file: string): AsyncGenerator<T> {
  if (!existsSync(file)) return;
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    // A torn line (crash mid-write) is rewritten whole by the retried append, so it is skipped here.
    if (line.trim() === '') continue;
    try {
      yield JSON.parse(line) as T;
    } catch {
      continue;
    }
  }
}

/** True when `file` exists, is not empty and does not end with a newline. */
function endsTorn(file: string): boolean {
  if (!existsSync(file)) return false;
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    closeSync(fd);
  }
}
