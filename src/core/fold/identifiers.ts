/**
 * Identifier extraction: the exact strings a summary must not paraphrase (paths, URLs, ids, hashes, codes). Pure and
 * deterministic; the ledger uses it to check what a summary kept.
 */
import type { Item } from '../messages/types';

/** The kinds of identifier recognised, in extraction priority order. */
export type IdentifierKind = 'url' | 'email' | 'uuid' | 'callId' | 'path' | 'hash' | 'ticket' | 'record' | 'codeName';

/**
 * Where an identifier was seen, from most to least important to keep: the user's own words, the assistant's prose,
 * the arguments of tool calls, tool output.
 */
export type IdentifierSource = 'user' | 'assistant' | 'toolArgs' | 'toolResult';

/** The sources in rank order (index = rank, lower is more important). */
export const SOURCE_RANK: readonly IdentifierSource[] = ['user', 'assistant', 'toolArgs', 'toolResult'];

/** One distinct identifier found in a head, with where and how often it appeared. */
export interface Identifier {
  value: string;
  kind: IdentifierKind;
  /** Every source it appeared in, in rank order. */
  sources: IdentifierSource[];
  /** Total occurrences over all items. */
  count: number;
  /** The latest item index (caller's array) it appeared in. */
  lastIndex: number;
}

// Trailing punctuation that ends a sentence rather than an identifier.
const TRAILING = /[.,;:!?'")\]}>]+$/;

interface Pattern {
  kind: IdentifierKind;
  re: RegExp;
  /** Masked patterns blank their matches so later patterns do not re-match inside them (a path inside a URL). */
  mask: boolean;
  accept?: (value: string) => boolean;
}

const hasLetter = (s: string): boolean => /[A-Za-z]/.test(s);
const hasDigit = (s: string): boolean => /\d/.test(s);

// Extensions a bare file name (no slash) must end in to count as a path: a short list avoids taking `Enum.take` or
// `e.g` for files.
const SOURCE_EXT =
  'ts|tsx|js|jsx|mjs|cjs|json|md|py|rb|go|rs|java|kt|c|h|cc|cpp|hpp|cs|ex|exs|eex|heex|erl|sh|bash|zsh|yml|yaml|toml|ini|cfg|conf|txt|csv|sql|html|css|scss|xml|lock|log|env|swift|php|lua|vue|svelte|proto|dockerfile';

const PATTERNS: readonly Pattern[] = [
  { kind: 'url', re: /\bhttps?:\/\/[^\s<>"'`\\]+/g, mask: true },
  { kind: 'email', re: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g, mask: true },
  { kind: 'uuid', re: /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g, mask: true },
  { kind: 'callId', re: /\b(?:call|toolu|fc|tool_call)_[A-Za-z0-9]{6,}\b/g, mask: true },
  {
    kind: 'path',
    // A run of path segments with at least one slash; accepted when it has an extension, is absolute or home/dot
    // relative, or has two or more slashes. "and/or" and "I/O" fail all three.
    re: /(?:~|\.{1,2})?\/?(?:[A-Za-z0-9_.@+-]+\/)+[A-Za-z0-9_.@+-]*[A-Za-z0-9_]/g,
    mask: true,
    accept: (v) =>
      hasLetter(v) &&
      (/\.[A-Za-z0-9]{1,10}$/.test(v) || /^(?:~|\.{1,2})?\//.test(v) || (v.match(/\//g) ?? []).length >= 2),
  },
  {
    kind: 'path',
    re: new RegExp(`(?<![\\w./-])[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+)*\\.(?:${SOURCE_EXT})\\b`, 'g'),
    mask: true,
  },
  { kind: 'hash', re: /\b[0-9a-f]{7,64}\b/g, mask: true, accept: (v) => hasDigit(v) && /[a-f]/.test(v) },
  { kind: 'ticket', re: /\b[A-Z]{2,10}-\d+\b|(?<![\w&])#\d+\b/g, mask: true },
  {
    kind: 'record',
    // Booking, order and account codes as in tau-bench: ZFA04Y, W2378156, HAT001, mia_li_3668.
    // Lookarounds reject the middle of a timestamp (2026-02-01T12:00).
    re: /(?<![\w:-])(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{5,12}(?![\w:-])|\b[a-z]+(?:_[a-z]+)*_\d{2,}\b/g,
    mask: true,
  },
];

// A quoted code name: backticked, no whitespace, at most 80 characters (`transcript_renderer`, `build_index/1`).
const CODE_NAME = /`([^`\s]{2,80})`/g;

/** One identifier occurrence in one piece of text. */
export interface Occurrence {
  value: string;
  kind: IdentifierKind;
}

function blank(text: string, start: number, end: number): string {
  return text.slice(0, start) + ' '.repeat(end - start) + text.slice(end);
}

/**
 * Finds the identifiers in one text, each occurrence once, in pattern priority order.
 *
 * @returns the occurrences (duplicates kept, so callers can count frequency)
 */
export function findIdentifiers(text: string): Occurrence[] {
  const found: Occurrence[] = [];
  for (const m of text.matchAll(CODE_NAME)) {
    const value = m[1];
    if (value !== undefined && hasLetter(value)) found.push({ value, kind: 'codeName' });
  }
  let rest = text;
  for (const p of PATTERNS) {
    p.re.lastIndex = 0;
    const hits: { start: number; end: number; value: string }[] = [];
    for (const m of rest.matchAll(p.re)) {
      const value = m[0].replace(TRAILING, '');
      const start = m.index;
      if (value.length < 2 || (p.accept && !p.accept(value))) continue;
      hits.push({ start, end: start + m[0].length, value });
    }
    for (const h of hits) {
      found.push({ value: h.value, kind: p.kind });
      if (p.mask) rest = blank(rest, h.start, h.end);
    }
  }
  return found;
}

/** The string leaves of a tool call's JSON arguments, one per line (raw JSON escapes would hide identifiers). */
export function argumentText(args: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return args;
  }
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(parsed);
  return out.join('\n');
}

// How a summary cites the archive: `[#12]`, `[#12, next, pointer]`, `(→ #12)`, `archive #12–#40`, `archive #12`.
const ARCHIVE_REF = /\[#\d+(?:, [a-z ]+)*\]|→ #\d+|\barchive #\d+(?:[–-]#\d+)?|\bin the archive: (?:(?:#\d+|\?) ?)+/g;

/**
 * A summary's text without its citations of the archive: archive sequence numbers are not identifiers of the
 * conversation, and listing them would crowd out real ones.
 *
 * @returns the text with every archive citation blanked
 */
export function withoutArchiveRefs(text: string): string {
  return text.replace(ARCHIVE_REF, ' ');
}

/** The texts of one item by source: prose to its role's source, each call's arguments to `toolArgs`. */
export function sourceTexts(item: Item): { source: IdentifierSource; text: string }[] {
  const out: { source: IdentifierSource; text: string }[] = [];
  switch (item.role) {
    case 'user':
      out.push({ source: 'user', text: item.text });
      break;
    case 'assistant':
      out.push({ source: 'assistant', text: item.text });
      break;
    case 'summary':
      out.push({ source: 'assistant', text: withoutArchiveRefs(item.text) });
      break;
    case 'tool':
    case 'activity':
      out.push({ source: 'toolResult', text: item.text });
      break;
    default:
      // instructions are never folded; reasoning is never sent to a summarizer; unknown items carry no prose we read.
      break;
  }
  for (const call of item.calls) out.push({ source: 'toolArgs', text: argumentText(call.arguments) });
  return out;
}

/**
 * Collects the distinct identifiers of a head, with sources, frequency and recency.
 *
 * @returns identifiers in first-seen order
 */
export function collectIdentifiers(items: readonly Item[]): Identifier[] {
  const byValue = new Map<string, Identifier>();
  for (const item of items) {
    for (const { source, text } of sourceTexts(item)) {
      if (!text) continue;
      for (const occ of findIdentifiers(text)) {
        let id = byValue.get(occ.value);
        if (!id) {
          id = { value: occ.value, kind: occ.kind, sources: [], count: 0, lastIndex: item.index };
          byValue.set(occ.value, id);
        }
        id.count += 1;
        id.lastIndex = Math.max(id.lastIndex, item.index);
        if (!id.sources.includes(source)) {
          id.sources.push(source);
          id.sources.sort((a, b) => SOURCE_RANK.indexOf(a) - SOURCE_RANK.indexOf(b));
        }
      }
    }
  }
  return [...byValue.values()];
}
