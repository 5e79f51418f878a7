/**
 * Group commit for the SQLite archive: writes that arrive in the same turn of the event loop (concurrent `ingest`
 * activities of several conversations) share one immediate transaction, so one fsync (`synchronous = FULL`) makes
 * them all durable. Each write runs in a savepoint of its own (better-sqlite3 nests a transaction as a savepoint), so
 * a refused write rolls back alone; a write's promise settles only once the transaction holding it has committed,
 * so nothing is reported stored before it is on disk.
 */
import type Database from 'better-sqlite3';

interface Queued {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export class GroupCommit {
  private queue: Queued[] = [];
  /** Writes committed and transactions used (`batches / writes` is the fsyncs per write); the tests read it. */
  readonly stats = { writes: 0, batches: 0 };

  /** @param begin wraps the batch's transaction (the archive's error mapping). */
  constructor(
    private readonly db: Database.Database,
    private readonly begin: <T>(fn: () => T) => T
  ) {}

  /**
   * Queues `write` (a synchronous function of the database, its own transaction or savepoint).
   * @returns its result once the batch holding it has committed.
   * @throws (rejects) what `write` throws, or what the batch's commit throws (then every write of the batch fails).
   */
  add<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => this.flush());
      this.queue.push({ run: write, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Commits what is queued now (also before the database closes). */
  flush(): void {
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.begin(() =>
        this.db
          .transaction(() => {
            for (const w of batch) {
              try {
                outcomes.push({ ok: true, value: w.run() });
              } catch (error) {
                outcomes.push({ ok: false, error });
              }
            }
          })
          .immediate()
      );
    } catch (error) {
      for (const w of batch) w.reject(error);
      return;
    }
    this.stats.writes += batch.length;
    this.stats.batches++;
    batch.forEach((w, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) w.resolve(outcome.value);
      else w.reject(outcome.error);
    });
  }
}
