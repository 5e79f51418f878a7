/**
 * `npx tsx bench/canaries/independent/supersession.ts [FACT_FILE…]`: the ledger's update matching alone, per fact set.
 * Each statement of the set (tool outputs left out: they replace only tool outputs) is read as the ledger reads a user
 * or assistant message; an update counts as caught when an entry of its later statement replaces an entry of its
 * first, and a false supersession is any other ordered pair of statements where one replaces the other (every fact of
 * a set has its own subject, so such a pair drops a fact that still holds). Beside it, the same statements against the
 * agents' own statements: each statement read into each corpus session, counted when an entry of that session would
 * replace it (in either order, so an upper bound). Default: every independent set.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LedgerEntry } from '../../../src/core/fold/state-ledger';
import { extractLedger, supersedes } from '../../../src/core/fold/state-ledger';
import { normalize } from '../../../src/core/messages/normalize';
import type { Speaker } from './facts';
import { loadFactSet } from './facts';
import { corpusConversations } from '../../../test/support/corpus';

/** @returns the ledger entries of one statement, said by `speaker` after a task */
function entriesOf(text: string, speaker: Speaker): LedgerEntry[] {
  const messages = [
    { role: 'user', content: 'Please help with the project.' },
    { role: speaker === 'assistant' ? 'assistant' : 'user', content: text },
  ];
  return extractLedger(normalize(messages, 'chat').items, {}).entries;
}

const replacesAny = (newer: readonly LedgerEntry[], older: readonly LedgerEntry[]): boolean =>
  older.some((o) => newer.some((n) => supersedes(n, o)));

/** Every corpus session's own ledger entries, read once. */
const corpusEntries = corpusConversations().map(
  ({ messages }) => extractLedger(normalize(messages as never, 'chat').items, {}).entries
);

function measure(file: string): string {
  const set = loadFactSet(file);
  const updates = set.updates.filter((u) => u.speaker !== 'tool');
  const caught = updates.filter((u) => replacesAny(entriesOf(u.later, u.speaker), entriesOf(u.first, u.speaker)));
  const statements = [
    ...set.facts.filter((f) => f.speaker !== 'tool').map((f) => ({ text: f.text, speaker: f.speaker, pair: '' })),
    ...updates.flatMap((u) => [
      { text: u.first, speaker: u.speaker, pair: u.id },
      { text: u.later, speaker: u.speaker, pair: u.id },
    ]),
  ].map((s) => ({ ...s, entries: entriesOf(s.text, s.speaker) }));
  let pairs = 0;
  let falseOnes = 0;
  for (const older of statements) {
    for (const newer of statements) {
      if (older === newer || (older.pair !== '' && older.pair === newer.pair)) continue;
      pairs += 1;
      if (replacesAny(newer.entries, older.entries)) falseOnes += 1;
    }
  }
  // A statement that is still true, replaced by a statement of the session around it.
  const kept = statements.filter((st) => !updates.some((u) => u.first === st.text) && st.entries.length > 0);
  let dropped = 0;
  for (const session of corpusEntries) for (const st of kept) if (replacesAny(session, st.entries)) dropped += 1;
  return (
    `${file}: updates caught ${caught.length}/${updates.length}; false supersessions ${falseOnes} of ${pairs} pairs; ` +
    `replaced by a corpus statement ${dropped} of ${kept.length * corpusEntries.length} statement × session pairs`
  );
}

const dir = join(__dirname, '..');
const files =
  process.argv.length > 2
    ? process.argv.slice(2)
    : readdirSync(dir)
        .filter((f) => /^independent-facts(?:-\d+)?\.json$/.test(f))
        .sort()
        .map((f) => join(dir, f));
for (const file of files) console.log(measure(file));
