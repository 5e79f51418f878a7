/**
 * The independent fact set: facts and updates written by someone who has not read the ledger code (schema below), so
 * that what is measured is not shaped like what the ledger extracts. Read and checked here; nothing in it is
 * rewritten.
 */
import { readFileSync } from 'node:fs';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How an update's value is found in a text (lower-cased): as a whole token where its edge is a letter or digit, so
 * "500" is not found in "1500" or "2.500" and "may" not in "maybe", while a sign or hyphen beside it does not hide it
 * ("$5,000", "mid-March") and neither does a plural ("Wednesdays"). An edge that is itself a sign ("finance-ops@")
 * needs no boundary.
 *
 * @returns the pattern
 */
export function valuePattern(value: string): RegExp {
  const v = value.toLowerCase();
  const left = /^\d/.test(v) ? '(?<![\\w])(?<!\\d[.,])' : /^\w/.test(v) ? '(?<![\\w])' : '';
  const right = /[a-z]$/.test(v)
    ? '(?:e?s)?(?![\\w])'
    : /\d$/.test(v)
      ? '(?![\\w])(?![.,]\\d)'
      : /\w$/.test(v)
        ? '(?![\\w])'
        : '';
  return new RegExp(`${left}${escape(v)}${right}`);
}

/** Who says a fact in the conversation. */
export type Speaker = 'user' | 'assistant' | 'tool';

/** One fact: its type (rule, constraint, fact, goal, preference, …), who says it, its text, and the probes that show it. */
export interface IndependentFact {
  id: string;
  type: string;
  speaker: Speaker;
  text: string;
  /**
   * Probe groups: every group must appear in one message of the context for the fact to count as kept, a group by
   * any of its alternatives (case-insensitive).
   */
  probes: string[][];
}

/** A value stated first, then replaced later in the conversation. */
export interface IndependentUpdate {
  id: string;
  type: string;
  speaker: Speaker;
  first: string;
  later: string;
  /** Alternatives of the replaced value, and of the new one. */
  oldValue: string[];
  newValue: string[];
}

/** The whole set. */
export interface FactSet {
  facts: IndependentFact[];
  updates: IndependentUpdate[];
}

const SPEAKERS: readonly Speaker[] = ['user', 'assistant', 'tool'];

const str = (v: unknown, what: string): string => {
  if (typeof v !== 'string' || v.trim() === '') throw new Error(`${what} must be a non-empty string`);
  return v;
};
/** A string or a list of strings, as alternatives. */
const alternatives = (v: unknown, what: string): string[] => {
  const list = Array.isArray(v) ? v : [v];
  if (list.length === 0) throw new Error(`${what} must not be empty`);
  return list.map((x, k) => str(x, `${what}[${k}]`));
};
const speaker = (v: unknown, what: string): Speaker => {
  const s = (v ?? 'user') as Speaker;
  if (!SPEAKERS.includes(s)) throw new Error(`${what} must be one of ${SPEAKERS.join(', ')}, got ${String(v)}`);
  return s;
};

/**
 * Parses and checks a fact set (`{facts: [{type, speaker, text, probes: [[alternatives…]…]}], updates: [{first,
 * later, oldValue, newValue}]}`, values as strings or lists of alternatives; ids are made when absent; an update's type defaults to `update`, its speaker to `user`).
 *
 * @throws Error naming the first field that is wrong
 * @returns the set
 */
export function parseFactSet(json: unknown): FactSet {
  const o = json as { facts?: unknown; updates?: unknown };
  if (!o || !Array.isArray(o.facts)) throw new Error('facts must be an array');
  const facts = o.facts.map((f: Record<string, unknown>, i): IndependentFact => {
    const at = `facts[${i}]`;
    const probes = f.probes;
    if (!Array.isArray(probes) || probes.length === 0) throw new Error(`${at}.probes must be a non-empty array`);
    const text = str(f.text, `${at}.text`);
    const ps = probes.map((p, k) => alternatives(p, `${at}.probes[${k}]`));
    for (const group of ps) {
      if (!group.some((p) => text.toLowerCase().includes(p.toLowerCase())))
        throw new Error(`${at}: no alternative of probe group '${group.join(' | ')}' is in its text`);
    }
    return {
      id: typeof f.id === 'string' ? f.id : `f${i}`,
      type: str(f.type, `${at}.type`),
      speaker: speaker(f.speaker, `${at}.speaker`),
      text,
      probes: ps,
    };
  });
  const updates = (Array.isArray(o.updates) ? o.updates : []).map(
    (u: Record<string, unknown>, i): IndependentUpdate => {
      const at = `updates[${i}]`;
      const first = str(u.first, `${at}.first`);
      const later = str(u.later, `${at}.later`);
      const oldValue = alternatives(u.oldValue, `${at}.oldValue`);
      const newValue = alternatives(u.newValue, `${at}.newValue`);
      // Found as the measurement finds it: a statement kept verbatim must count as stating its value.
      const within = (text: string, values: string[]): boolean =>
        values.some((v) => valuePattern(v).test(text.toLowerCase()));
      if (!within(first, oldValue)) throw new Error(`${at}: no oldValue is in first`);
      if (!within(later, newValue)) throw new Error(`${at}: no newValue is in later`);
      return {
        id: typeof u.id === 'string' ? u.id : `u${i}`,
        type: typeof u.type === 'string' ? u.type : 'update',
        speaker: speaker(u.speaker, `${at}.speaker`),
        first,
        later,
        oldValue,
        newValue,
      };
    }
  );
  return { facts, updates };
}

/** @returns the fact set in `file` */
export function loadFactSet(file: string): FactSet {
  return parseFactSet(JSON.parse(readFileSync(file, 'utf8')));
}
