/**
 * The recall measurement shared by test/client/recall.test.ts and bench/recall.ts: a corpus session with the
 * independent identifier facts planted in it is driven through a real conversation at a small budget until it has
 * folded many times; then every identifier of every folded message, and every archive pointer any summary printed,
 * is asked of `recall`. Identifiers are defined here, independently of the ledger's extractor: the planted facts'
 * probes (bench/canaries/independent-facts.json) and what three regular expressions of this file find (ticket
 * numbers, hex hashes, paths). A hit is checked on the original text, not with the search's own word rules.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConversationClient } from '../../src/client/conversation-client';
import { isMarkedSummary } from '../../src/core/messages/text';
import { corpusConversation } from './corpus';
import { driveConversation } from './drive';

type Message = Record<string, unknown>;

/** Ticket numbers (JIRA-4471), hex hashes with a digit and a letter (5f2c9e1), paths of two or more segments. */
export const IDENTIFIER_PATTERNS: Record<'ticket' | 'hash' | 'path', RegExp> = {
  ticket: /\b[A-Z][A-Z0-9]{1,9}-\d{2,}\b/g,
  hash: /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/g,
  path: /(?:\/[A-Za-z0-9_.-]+){2,}/g,
};

/** How a summary points into the archive: `(→ #12)`, `[#12`, `archive #12–#40`. */
const POINTER = /(?:→ |\[|\barchive )#(\d+)(?:[–-]#(\d+))?/g;

interface Fact {
  type: string;
  text: string;
  probes: string[][];
}

/** What one measurement found. */
export interface RecallMeasurement {
  session: string;
  budget: number;
  messages: number;
  folds: number;
  /** Messages numbered at most the last folded one. */
  foldedMessages: number;
  identifiers: Record<'planted' | keyof typeof IDENTIFIER_PATTERNS, { total: number; retrievable: number }>;
  pointers: { total: number; resolved: number };
  /** Of all matches returned for identifier queries, the share whose original text holds the identifier. */
  precision: number;
  /** The identifiers and pointers that failed (empty when everything is retrievable). */
  missing: string[];
  recallMs: { total: number; perQuery: number };
}

/** @returns every string value inside a message, joined (the text a person reading the original would search). */
export function originalText(message: unknown): string {
  if (typeof message === 'string') return message;
  if (typeof message !== 'object' || message === null) return '';
  return Object.values(message).map(originalText).join('\n');
}

/** The identifier facts of the independent fact set. */
export function identifierFacts(): Fact[] {
  const file = join(__dirname, '..', '..', 'bench', 'canaries', 'independent-facts.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { facts: Fact[] }).facts.filter((f) => f.type === 'identifier');
}

/** @returns `messages` with the identifier facts planted as user messages, spread over the first 80% of its turns. */
export function plantIdentifierFacts(messages: readonly Message[]): { messages: Message[]; facts: Fact[] } {
  const facts = identifierFacts();
  // Before an assistant message: never between a call and its result.
  const slots = messages.map((m, i) => i).filter((i) => i > 1 && messages[i]!.role === 'assistant');
  const at = new Map<number, Fact[]>();
  facts.forEach((f, k) => {
    const slot = slots[Math.floor(((k + 0.5) / facts.length) * 0.8 * slots.length)]!;
    at.set(slot, [...(at.get(slot) ?? []), f]);
  });
  const out: Message[] = [];
  messages.forEach((m, i) => {
    for (const f of at.get(i) ?? []) out.push({ role: 'user', content: f.text });
    out.push(m);
  });
  return { messages: out, facts };
}

/**
 * Drives `session` (planted) through `conv` (a fresh conversation whose client has `archive`) and measures recall.
 * @param conv a client of a new conversation, created with the budget to measure at and an `archive` option.
 */
export async function measureRecall(
  conv: ConversationClient,
  session: string,
  budget: number
): Promise<RecallMeasurement> {
  const { messages } = plantIdentifierFacts(corpusConversation(session).messages);
  const summaries = new Set<string>();
  await driveConversation(conv, messages, (prepared) => {
    for (const m of prepared.messages) {
      const content = (m as { content?: unknown }).content;
      if (typeof content === 'string' && isMarkedSummary(content)) summaries.add(content);
    }
  });
  await conv.waitForFold().catch(() => undefined);
  const folds = (await conv.folds()).filter((f) => f.ok && f.archiveRange);
  const lastFolded = Math.max(-1, ...folds.map((f) => f.archiveRange!.lastSeq));
  const missing: string[] = [];
  let returned = 0;
  let holding = 0;
  let queries = 0;
  const started = performance.now();
  const retrievable = async (id: string): Promise<boolean> => {
    queries++;
    // Quoted, as the tool tells the model: a `#2318` in an identifier is text, not an archive number.
    const r = await conv.recall(`"${id}"`);
    returned += r.matches.length;
    const hits = r.matches.filter((m) => originalText(m.message).includes(id));
    holding += hits.length;
    if (hits.length > 0) return true;
    // A match too large for the byte cap is named in `omitted`: asked for alone, with a larger cap, it comes back.
    for (const seq of r.omitted.filter((s) => originalText(messages[s]).includes(id))) {
      queries++;
      const alone = await conv.recall(`#${seq}`, { maxBytes: 16 * 1024 * 1024 });
      if (alone.matches.some((m) => m.seq === seq && originalText(m.message).includes(id))) return true;
    }
    return false;
  };
  const identifiers = {} as RecallMeasurement['identifiers'];
  const ids = new Map<string, Set<string>>([['planted', new Set()]]);
  for (const kind of Object.keys(IDENTIFIER_PATTERNS)) ids.set(kind, new Set());
  for (const m of messages.slice(0, lastFolded + 1)) {
    const text = originalText(m);
    for (const [kind, re] of Object.entries(IDENTIFIER_PATTERNS))
      for (const found of text.matchAll(re)) if (found[0].length <= 200) ids.get(kind)!.add(found[0]);
  }
  for (const probe of plantedIn(messages, lastFolded)) ids.get('planted')!.add(probe);
  for (const [kind, set] of ids) {
    let ok = 0;
    for (const id of set) {
      if (await retrievable(id)) ok++;
      else missing.push(`${kind} ${id}`);
    }
    identifiers[kind as keyof RecallMeasurement['identifiers']] = { total: set.size, retrievable: ok };
  }
  const pointed = new Set<number>();
  for (const s of summaries)
    for (const p of s.matchAll(POINTER)) {
      pointed.add(Number(p[1]));
      if (p[2] !== undefined) pointed.add(Number(p[2]));
    }
  let resolved = 0;
  for (const seq of pointed) {
    queries++;
    const r = await conv.recall(`(→ #${seq})`, { maxBytes: 16 * 1024 * 1024 });
    const ok = r.matches.length === 1 && r.matches[0]!.seq === seq && same(r.matches[0]!.message, messages[seq]);
    if (ok) resolved++;
    else missing.push(`pointer #${seq}`);
  }
  const total = performance.now() - started;
  return {
    session,
    budget,
    messages: messages.length,
    folds: folds.length,
    foldedMessages: lastFolded + 1,
    identifiers,
    pointers: { total: pointed.size, resolved },
    precision: returned === 0 ? 1 : holding / returned,
    missing,
    recallMs: { total: Math.round(total), perQuery: Number((total / Math.max(1, queries)).toFixed(2)) },
  };
}

/** The probes of the planted identifier facts whose message was folded (numbered at most `lastFolded`). */
function plantedIn(messages: readonly Message[], lastFolded: number): string[] {
  const probes: string[] = [];
  for (const fact of identifierFacts()) {
    const seq = messages.findIndex((m) => m.content === fact.text);
    if (seq >= 0 && seq <= lastFolded) probes.push(...fact.probes.flat());
  }
  return probes;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
