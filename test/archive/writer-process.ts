// A process that writes messages to an archive, for the conformance suite's multi-process and kill -9 tests.
// Env: ARCHIVE_DRIVER (sqlite | postgres), ARCHIVE_PATH or DATABASE_URL, KEY, FROM, TO (exclusive), BATCH.
// Message n is `{"n": n, "text": "message n"}`. After committing each batch it prints `committed FIRST`, then, unless
// PAUSE_AFTER_COMMIT names that batch's first seq (then it waits forever: the test kills it before the ack), `ack FIRST`.
import { openArchiveFromEnv, requiredEnv } from '../support/archive-from-env';

export function messageFor(n: number): { n: number; text: string } {
  return { n, text: `message ${n}` };
}

async function main(): Promise<void> {
  const env = (name: string): string => requiredEnv(name, 'writer-process');
  const archive = await openArchiveFromEnv('writer-process');
  const [from, to, batch] = ['FROM', 'TO', 'BATCH'].map((n) => Number(env(n))) as [number, number, number];
  const pauseAt = process.env.PAUSE_AFTER_COMMIT === undefined ? -1 : Number(process.env.PAUSE_AFTER_COMMIT);
  for (let first = from; first < to; first += batch) {
    const messages = [];
    for (let n = first; n < Math.min(first + batch, to); n++) messages.push(messageFor(n));
    await archive.append(env('KEY'), first, messages);
    process.stdout.write(`committed ${first}\n`);
    if (first === pauseAt) await new Promise(() => setInterval(() => {}, 1000));
    process.stdout.write(`ack ${first}\n`);
  }
  await archive.close();
  process.stdout.write('done\n');
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
