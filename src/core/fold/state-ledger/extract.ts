/**
 * Reading ledger entries out of the messages being folded: every statement of a short user message or injected
 * reminder (classified by its wording, `said` when it has none), the normative and decisive statements of long pasted
 * text, what the assistant commits to, decides, aims at or found (a statement with a value), short tool results
 * with a value (verbatim, as what was seen), the latest task list, and the errors that no later call resolved.
 */
import { clip, oneLine } from '../text-clip';
import { errorLine } from '../error-line';
import { keyArgument } from '../key-argument';
import { isOffloaded } from '../pointer';
import type { Item } from '../../messages/types';
import { classifyStatement } from './classify';
import { stripMarkup } from './markup';
import { splitStatements } from './sentences';
import { taskList, taskText } from './task-list';
import type { EntryKind, GoalStatus, LedgerEntry, StateLedger } from './types';

/** Options of {@link extractLedger}. */
export interface ExtractOptions {
  /** Archive sequence number of each item, by item position (`null` or missing: unknown). */
  seqs?: readonly (number | null)[];
  /**
   * Texts up to this many characters are read as a person's message: every statement is kept. Longer texts (pasted
   * files, skill documents, task descriptions) give only the statements that read as rules, limits, preferences or
   * decisions. @default 600
   */
  shortText?: number;
  /** Longest statement kept as an entry, characters. @default 400 */
  maxStatement?: number;
  /** The task is already known (carried by a previous summary): the first user message is an ordinary one. */
  taskKnown?: boolean;
}

const REMINDER = /<system-reminder>([\s\S]*?)<\/system-reminder>/g;
// Kinds that long pasted text contributes: what binds the agent, not every fact in a document.
const FROM_LONG_TEXT: ReadonlySet<EntryKind> = new Set(['rule', 'constraint', 'preference', 'decision']);
const CONTINUED: ReadonlySet<EntryKind> = new Set(['rule', 'constraint', 'preference', 'goal']);
const CONTINUATION = /^(?:no|not|never|nor|even|only|except|unless|including|especially|also)\b/i;
// The assistant taking on a rule, a limit or a preference of the user ("Noted. I won't force-push", "Going forward I'll
// cite the source"): what it commits to binds it like the user's own words. A bare "I'll …" is how an agent narrates
// its next step, not a commitment.
const COMMITS =
  /\b(?:i won['’]t|i will not|going forward|from now on|per your|you said|you asked|you['’]ve (?:said|asked|told)|you have (?:said|asked|told)|you mentioned|you prefer|as you|as requested|will do|noted|understood|got it|ground rules|the rule)\b/i;
// The assistant echoing back what it was asked for, to check it ("To recap the aim: …", "Just to confirm: the window is
// six hours", "If I understand you correctly, you want …"): the user's aim, limit or rule in the assistant's words.
const RESTATES =
  /\b(?:to restate|restating|to recap|recapping|as i understand it|if i understand (?:it|you|this) (?:right|correctly)|(?:just )?to confirm|make sure i['’]ve got|so the (?:goal|aim|objective|constraint|requirement) is)\b/i;
// The assistant restating the aim ("The task I'm working on is …", "Current objective: …"), not every mention of a task.
const AIM =
  /\b(?:the|our|current|main) (?:goal|objective|task|aim)\b[^.]*?\b(?:is|was|now)\b|^(?:goal|objective|aim|current objective)\s*:|what we['’]re after|\baimed at\b/i;
// A statement worth keeping as what was seen or found: it has a value (a digit, a path, an id, a quoted name).
const HAS_VALUE = /\d|[/@_#]|`[^`]+`/;
/** Tool results up to this many characters are kept whole as what was seen (when they hold a value). */
export const OBSERVATION_CHARS = 300;
const BOUND_KINDS: ReadonlySet<EntryKind> = new Set(['rule', 'constraint', 'preference', 'goal', 'decision']);

/**
 * The kind of an assistant statement: what it commits to, decides or aims at, or what it found. Narration of its next
 * step ("Let me read the file") is none of these, but a commitment is kept however it opens ("I'll keep using …").
 */
function assistantKind(s: string): EntryKind | undefined {
  if ((COMMITS.test(s) || (NARRATION.test(s) && DURABLE.test(s))) && s.split(/\s+/).length >= 4) {
    // What the agent holds itself to is a rule unless its wording makes it a limit, a preference, a goal, a decision.
    const k = classifyStatement(s, true);
    return k && BOUND_KINDS.has(k) ? k : 'rule';
  }
  if (RESTATES.test(s) && s.split(/\s+/).length >= 6) {
    // What the assistant echoes back is the user's: a limit, a rule or a wish when worded as one, else the aim.
    const k = classifyStatement(s, true);
    return k && BOUND_KINDS.has(k) ? k : 'goal';
  }
  if (NARRATION.test(s) || GUESS.test(s) || /\?\s*$/.test(s)) return undefined;
  if (classifyStatement(s, false) === 'decision') return 'decision';
  if (AIM.test(s)) return 'goal';
  if (FOUND.test(s)) return 'fact';
  return HAS_VALUE.test(s) ? 'observation' : undefined;
}

// A next step said for good ("I'll use ds-4 for all the evals", "I'll keep replies in second person from here on") is a
// commitment, not narration: its scope outlasts the step.
const DURABLE =
  /\b(?:for (?:all|every|each|the rest)|every time|whenever|always|never|from here on|throughout|consistently)\b/i;
// A finding stated as one, value or not ("Confirmed: it only fails on the nights the certificate rotated", "the real
// bottleneck is the N+1 query"): a fact, ranked with what the user states, not with what a tool happened to show.
// What the assistant reports having checked, then what it saw ("I looked at the DNS records: api.example.io is a
// CNAME …", "I checked — the bucket is s3://…") is a finding too.
const FOUND =
  /\b(?:confirmed|verified|turns out|turned out|root cause|caused by|is isolated to|the (?:real |actual |main )?(?:issue|problem|bug|bottleneck|culprit|cause) (?:is|was))\b|^i (?:checked|looked at|looked into|dug into|inspected|traced|went through|compared)\b[^:—–]{0,60}(?:[:—–]|, and)/i;

// The assistant thinking aloud — a guess it has not checked ("maybe it's a tab", "I think L003 runs twice") or a question
// to itself — is reasoning on the way to a finding, not one: what it found is stated without a hedge.
const GUESS =
  /\b(?:maybe|perhaps|probably|possibly|might|i think|i guess|i suspect|i wonder|not sure|could be|hmm+|wait)\b/i;

// Narration of the next step by the assistant ("Let me…", "Now I'll…"): never a decision.
// An acknowledgement may open it ("Sure — I'll …", "Of course, I'll …").
const NARRATION =
  /^(?:(?:now|ok(?:ay)?|great|perfect|good|alright|first|next|sure|yes|yep|of course|absolutely|understood|right|thanks|thank you)\s*[,!.—–-]?\s+)*(?:let me|let's|i'll|i will|i need to|i'm going to)\b/i;

function statusOf(status: unknown): GoalStatus {
  const s = typeof status === 'string' ? status.toLowerCase() : '';
  if (/^(?:completed|done|closed|cancelled)$/.test(s)) return 'done';
  if (/progress|active|doing/.test(s)) return 'in progress';
  return 'next';
}

/** Statements of one human or injected text, classified; long text gives only binding statements. */
function statementsOf(text: string, seq: number | null, o: { shortText: number; maxStatement: number }): LedgerEntry[] {
  const bare = stripMarkup(text).trim();
  if (!bare) return [];
  const long = bare.length > o.shortText || /^\s*</.test(text);
  const out: LedgerEntry[] = [];
  let previous: EntryKind | undefined;
  for (const s of splitStatements(bare)) {
    if (s.length > o.maxStatement) continue;
    // A statement with no wording of its own that opens like a rider ("No …", "Even …", "Except …") right after a
    // rule, a limit, a preference or a goal goes on with it ("We can only refund to the original payment method. No
    // store credit, no gift cards.").
    const own = classifyStatement(s, true);
    const goesOn = own === 'said' && previous && CONTINUED.has(previous) && CONTINUATION.test(s);
    const kind = goesOn ? previous! : own;
    previous = kind;
    if (!kind || (long && !FROM_LONG_TEXT.has(kind))) continue;
    // "Thanks.", "Hmm, okay.": a few words with no value say nothing to carry.
    if (kind === 'said' && s.split(/\s+/).length < 4 && !/[\d@/_]/.test(s)) continue;
    out.push({ kind, text: s, seq });
  }
  return out;
}

function errorKey(tool: string, args: string): string {
  return `${tool}(${clip(keyArgument(args), 80)})`;
}

/**
 * Extracts the ledger of the items being folded (a previous summary among them is left to `parseLedger`).
 *
 * @returns the task (the first user message, verbatim) and the entries in message order
 */
export function extractLedger(items: readonly Item[], options: ExtractOptions = {}): StateLedger {
  const o = { shortText: options.shortText ?? 600, maxStatement: options.maxStatement ?? 400 };
  const seqOf = (i: number): number | null => options.seqs?.[i] ?? null;
  const byIndex = new Map(items.map((i) => [i.index, i]));
  const entries: LedgerEntry[] = [];
  let task: StateLedger['task'];
  let tasks: LedgerEntry[] | undefined;
  // Errors by the call that produced them; a later clean result of the same call resolves them.
  const errors = new Map<string, LedgerEntry>();
  // A question the assistant spoke after is taken as answered.
  const questionAt = new Map<LedgerEntry, number>();
  let lastAssistantProse = -1;
  items.forEach((item, pos) => {
    const seq = seqOf(pos);
    const reminders = [...item.text.matchAll(REMINDER)].map((m) => m[1] ?? '');
    for (const r of reminders) entries.push(...statementsOf(r, seq, o));
    const prose = item.text.replace(REMINDER, ' ');
    if (item.role === 'user' && prose.trim()) {
      if (!task && !options.taskKnown) {
        task = { text: prose.trim(), seq };
        // A long task is clipped first when space is short: its binding statements are kept as entries too.
        if (prose.trim().length > o.shortText) entries.push(...statementsOf(prose, seq, o));
      } else {
        const found = statementsOf(prose, seq, o);
        for (const e of found) if (e.kind === 'question') questionAt.set(e, pos);
        entries.push(...found);
      }
    } else if (item.role === 'assistant') {
      if (prose.trim()) lastAssistantProse = pos;
      for (const s of splitStatements(prose)) {
        const kind = s.length <= o.maxStatement ? assistantKind(s) : undefined;
        if (kind) entries.push({ kind, text: s, seq });
      }
    } else if ((item.role === 'tool' || item.role === 'activity') && item.answers) {
      const call = byIndex.get(item.answers.itemIndex)?.calls[item.answers.callIndex];
      const key = errorKey(item.answers.name, call?.arguments ?? '');
      const line = errorLine(prose, 200);
      if (line) errors.set(key, { kind: 'error', text: `${key} → ${line}`, seq });
      else errors.delete(key);
      const seen = oneLine(stripMarkup(prose));
      // A policy or a limit a tool showed ("Agents must verify …", "Limit: 24.0 in region …") binds like a rule;
      // another short result is kept as what was seen when it holds a value.
      // An offloaded output's pointer says where the output went, not what the tool showed.
      const shown = !line && !isOffloaded(prose.trim()) && seen.length >= 12 && seen.length <= OBSERVATION_CHARS;
      const own = shown ? classifyStatement(seen, true) : undefined;
      const kind =
        own === 'rule' || own === 'constraint' ? own : own && HAS_VALUE.test(seen) ? 'observation' : undefined;
      if (kind) entries.push({ kind, text: `${key} → ${seen}`, seq });
    }
    for (const call of item.calls) {
      const list = taskList(call.arguments);
      if (!list) continue;
      tasks = list.flatMap((t) => {
        const what = taskText(t);
        return what
          ? [{ kind: 'goal' as const, text: clip(what, o.maxStatement), seq, status: statusOf(t.status) }]
          : [];
      });
    }
  });
  // An answered question stays as something the user said (it is often a request: "can you switch …?").
  const open = entries.map((e) =>
    (questionAt.get(e) ?? Infinity) > lastAssistantProse ? e : { ...e, kind: 'said' as const }
  );
  return {
    ...(task ? { task } : {}),
    entries: [...open, ...(tasks ?? []), ...errors.values()],
  };
}

/**
 * The calls that ran cleanly in `items`, as error keys: a carried error with one of these keys is resolved.
 *
 * @returns the keys
 */
export function cleanCalls(items: readonly Item[]): Set<string> {
  const out = new Set<string>();
  const byIndex = new Map(items.map((i) => [i.index, i]));
  for (const item of items) {
    if ((item.role !== 'tool' && item.role !== 'activity') || !item.answers) continue;
    const call = byIndex.get(item.answers.itemIndex)?.calls[item.answers.callIndex];
    const key = errorKey(item.answers.name, call?.arguments ?? '');
    if (!errorLine(item.text, 200)) out.add(key);
  }
  return out;
}
