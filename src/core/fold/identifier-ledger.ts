/**
 * The identifier ledger: after a summary is written, every identifier of the folded messages is looked up in it, and
 * the ones it dropped are appended in one compact section, most important first, until a token cap. Paraphrase is the
 * usual way a summary loses a path or an id; the ledger makes that loss visible and mostly undoes it.
 */
import type { Identifier, IdentifierKind, IdentifierSource } from './identifiers';
import { SOURCE_RANK } from './identifiers';

/** Kept and total counts for one group of identifiers. */
export interface RetentionCount {
  kept: number;
  total: number;
}

/** How many identifiers a text keeps, overall and per source (an identifier counts in every source it came from). */
export interface Retention extends RetentionCount {
  bySource: Record<IdentifierSource, RetentionCount>;
}

/** Options of {@link applyLedger}. */
export interface LedgerOptions {
  /** Cap on the appended section, in tokens as measured by `count`. */
  maxTokens: number;
  /** Token measure of a string. @default ceil(chars / 3), a pessimistic estimate for path-heavy text */
  count?: (text: string) => number;
  /** First line of the appended section. @default {@link LEDGER_HEADING} */
  heading?: string;
}

/** The result of {@link applyLedger}. */
export interface LedgerResult {
  /** The summary with the section appended (the summary unchanged when nothing was missing or nothing fit). */
  text: string;
  /** The identifiers appended, in rank order. */
  appended: string[];
  /** Missing identifiers that did not fit under the cap. */
  omitted: number;
  /** Retention of the summary alone. */
  before: Retention;
  /** Retention of the final text. */
  after: Retention;
}

/** The heading of the appended section. */
export const LEDGER_HEADING = 'Identifiers from the folded part, verbatim:';

const KIND_LABEL: Record<IdentifierKind, string> = {
  path: 'files',
  url: 'urls',
  email: 'emails',
  uuid: 'uuids',
  hash: 'hashes',
  callId: 'call ids',
  ticket: 'tickets',
  record: 'codes',
  codeName: 'names',
};
const KIND_ORDER: readonly IdentifierKind[] = [
  'path',
  'codeName',
  'url',
  'ticket',
  'record',
  'uuid',
  'hash',
  'email',
  'callId',
];

const defaultCount = (text: string): number => Math.ceil(text.length / 3);

function emptyCounts(): Record<IdentifierSource, RetentionCount> {
  return {
    user: { kept: 0, total: 0 },
    assistant: { kept: 0, total: 0 },
    toolArgs: { kept: 0, total: 0 },
    toolResult: { kept: 0, total: 0 },
  };
}

/**
 * Measures which identifiers a text contains verbatim (exact, case-sensitive substring).
 *
 * @returns kept/total overall and per source
 */
export function measureRetention(text: string, identifiers: readonly Identifier[]): Retention {
  const bySource = emptyCounts();
  let kept = 0;
  for (const id of identifiers) {
    const has = text.includes(id.value);
    if (has) kept += 1;
    for (const s of id.sources) {
      bySource[s].total += 1;
      if (has) bySource[s].kept += 1;
    }
  }
  return { kept, total: identifiers.length, bySource };
}

/**
 * Orders identifiers by importance: best source (user > assistant prose > tool arguments > tool results), then
 * frequency, then recency, then value (so the order is total and deterministic).
 *
 * @returns a new, sorted array
 */
export function rankIdentifiers(identifiers: readonly Identifier[]): Identifier[] {
  const rank = (id: Identifier): number => SOURCE_RANK.indexOf(id.sources[0] ?? 'toolResult');
  return [...identifiers].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      b.count - a.count ||
      b.lastIndex - a.lastIndex ||
      (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)
  );
}

function renderSection(heading: string, chosen: readonly Identifier[]): string {
  const lines = [heading];
  for (const kind of KIND_ORDER) {
    const values = chosen.filter((c) => c.kind === kind).map((c) => c.value);
    if (values.length > 0) lines.push(`- ${KIND_LABEL[kind]}: ${values.join(' ')}`);
  }
  return lines.join('\n');
}

/**
 * Appends the identifiers a summary dropped, ranked by {@link rankIdentifiers}, until `maxTokens`.
 * An identifier contained in one already present (a file name inside its full path) is not appended twice.
 *
 * @returns the final text, what was appended, and retention before and after
 */
export function applyLedger(summary: string, identifiers: readonly Identifier[], options: LedgerOptions): LedgerResult {
  const count = options.count ?? defaultCount;
  const heading = options.heading ?? LEDGER_HEADING;
  const before = measureRetention(summary, identifiers);
  const missing = rankIdentifiers(identifiers.filter((id) => !summary.includes(id.value)));
  const chosen: Identifier[] = [];
  // Per-kind line overhead is paid once per kind; values cost their own tokens plus a separator.
  let used = count(heading) + 2;
  const kindsUsed = new Set<IdentifierKind>();
  let omitted = 0;
  let joined = '';
  for (const id of missing) {
    if (joined.includes(id.value)) continue;
    const cost = count(id.value) + 1 + (kindsUsed.has(id.kind) ? 0 : count(KIND_LABEL[id.kind]) + 3);
    if (used + cost > options.maxTokens) {
      omitted += 1;
      continue;
    }
    used += cost;
    kindsUsed.add(id.kind);
    chosen.push(id);
    joined += `\n${id.value}`;
  }
  if (chosen.length === 0) {
    return { text: summary, appended: [], omitted, before, after: before };
  }
  const text = `${summary.trimEnd()}\n\n${renderSection(heading, chosen)}`;
  return { text, appended: chosen.map((c) => c.value), omitted, before, after: measureRetention(text, identifiers) };
}
