/**
 * The typed values a statement states: an amount of money, a share, a size, a duration, a rate, a version of a named
 * thing, a numbered name, a member of an identifier family, an e-mail address, a date. Two statements stating a
 * value of one type about one subject fill one slot ("the dinner budget is $300" / "we can go up to $650 for the
 * dinner"); a bare number does not say which slot it fills ("64 kb ram" is not a GPU quota of 64).
 */

import { isStopWord } from './sentences';
import { CLASS_PATTERNS } from './value-classes';
import { memoByText } from './text-memo';

/** One typed value: its type (with the name or family it belongs to, where it has one) and the value as written. */
export interface TypedValue {
  type: string;
  value: string;
}

const NUM = String.raw`\d(?:[\d,]*\d)?(?:\.\d+)?`;
const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const WEEKDAY = String.raw`(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)day`;

/** A pattern of one type of value, and how a match of it reads as a value. */
interface ValuePattern {
  re: RegExp;
  read: (match: string) => TypedValue;
}

const spelled = (match: string): string => match.toLowerCase().replace(/\s+/g, ' ').trim();

// Order matters: the first pattern that claims a span types it (a rate before the duration inside it).
const OWN_PATTERNS: readonly { type: string; re: RegExp }[] = [
  { type: 'email', re: /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g },
  // A phone number in international form: "+44 7700 900123", "+1-415-555-0100".
  { type: 'phone', re: /\+\d{1,3}(?:[\s-]?\(?\d{2,5}\)?){2,4}\b/g },
  {
    type: 'money',
    re: new RegExp(
      String.raw`[$€£¥]\s?${NUM}\s?[kmb]?\b|\b${NUM}\s?(?:k|m)?\s?(?:usd|eur|gbp|dollars?|euros?|pounds?)\b`,
      'gi'
    ),
  },
  { type: 'share', re: new RegExp(String.raw`\b${NUM}\s?(?:%|percent\b)`, 'gi') },
  {
    type: 'rate',
    re: new RegExp(
      String.raw`\b${NUM}\s?(?:[a-z]+\s|[a-z]+(?=/))?(?:per|/|an?)\s?(?:s|sec(?:ond)?|min(?:ute)?|h|hour|day|week|month|year|night|request|user|seat)\b`,
      'gi'
    ),
  },
  { type: 'size', re: new RegExp(String.raw`\b${NUM}\s?(?:[kmgtp]i?b|bytes?)\b`, 'gi') },
  {
    type: 'duration',
    re: new RegExp(
      String.raw`\b${NUM}[\s-]?(?:ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?)\b`,
      'gi'
    ),
  },
  {
    type: 'date',
    re: new RegExp(
      String.raw`\b${MONTH}\.?\s\d{1,2}(?:st|nd|rd|th)?\b|\b\d{1,2}(?:st|nd|rd|th)?\s(?:of\s)?${MONTH}\b|\b\d{4}-\d{2}-\d{2}\b|\b${WEEKDAY}s?\b`,
      'gi'
    ),
  },
  { type: 'time', re: /\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b/gi },
];

// The own patterns, then the closed classes (value-classes.ts) in what they leave.
const PATTERNS: readonly ValuePattern[] = [
  ...OWN_PATTERNS.map(({ type, re }) => ({
    re,
    read: (match: string): TypedValue => {
      const value = spelled(match);
      return { type: type === 'duration' ? `duration:${durationUnit(value)}` : type, value };
    },
  })),
  ...CLASS_PATTERNS,
];

// A name and its number: "Java 11", "Terminal 3", "Python 3.11", "node v20".
const NUMBERED_NAME = /\b([A-Za-z][A-Za-z+#]{1,20})\s?v?(\d+(?:\.\d+){0,2})\b/g;
// An identifier of a family: letters and a number joined by a sign ("db-orion-01", "SPR-41", "INV-10001").
const FAMILY_MEMBER = /(?<![\w#@/.-])([A-Za-z][\w]*(?:[-_.][A-Za-z]\w*)*)[-_.]?(\d+)(?![\w-])/g;

// Words before a number that are not its name: "under 10", "top 5", "at least 3".
const FILLER = new Set(
  'the a an of to at is are was be and or for in on by up top under over than about around only least most from with every last next each per after before within until till into all max min maximum minimum'.split(
    ' '
  )
);

/**
 * The unit of a duration, so that a latency in milliseconds and a retention in days are not one slot.
 *
 * @returns `ms`, `s`, `min`, `h`, `day`, `week`, `month` or `year`
 */
function durationUnit(value: string): string {
  const unit = value.replace(/^[\d,.\s-]+/, '');
  if (/^(?:ms|milli)/.test(unit)) return 'ms';
  if (/^mi/.test(unit)) return 'min';
  if (/^s/.test(unit)) return 's';
  if (/^h/.test(unit)) return 'h';
  return unit.replace(/s$/, '');
}

/**
 * The typed values of `text`, in order of the patterns.
 *
 * @returns the values, lower-cased, each with its type
 */
export function typedValues(text: string): readonly TypedValue[] {
  return typedScan(text).values;
}

/** @returns the typed values of `text`, and its text with their spans blanked */
export const typedScan = memoByText((text: string): { readonly values: readonly TypedValue[]; readonly rest: string } =>
  Object.freeze(scan(text))
);

function scan(text: string): { values: TypedValue[]; rest: string } {
  const out: TypedValue[] = [];
  let rest = text;
  for (const { re, read } of PATTERNS) {
    rest = rest.replace(re, (m) => {
      out.push(read(m));
      return ' '.repeat(m.length);
    });
  }
  const named = rest;
  for (const m of named.matchAll(NUMBERED_NAME)) {
    const name = (m[1] ?? '').toLowerCase();
    if (FILLER.has(name) || isStopWord(name)) continue;
    out.push({ type: `named:${name}`, value: m[0].toLowerCase() });
  }
  for (const m of named.matchAll(FAMILY_MEMBER)) {
    const family = (m[1] ?? '').toLowerCase();
    if (!/[-_.]/.test(m[0]) || family.length < 2) continue;
    out.push({ type: `family:${family}`, value: m[0].toLowerCase() });
  }
  return { values: out, rest };
}

/**
 * The typed slot `newer` fills in `older`'s place: a type both state, whose value in `older` `newer` no longer states,
 * with at most two new values of that type in `newer` (a statement listing many is about something else).
 *
 * @returns the type, or `undefined` when they share none
 */
export function sharedTypedSlot(newer: string, older: string): string | undefined {
  const n = typedValues(newer);
  const o = typedValues(older);
  const newOf = (type: string): string[] => n.filter((v) => v.type === type).map((v) => v.value);
  for (const { type, value } of o) {
    const now = newOf(type);
    if (now.length === 0 || now.length > 2 || now.includes(value)) continue;
    return type;
  }
  return undefined;
}

/** @returns whether the type names its own subject (a numbered name or an identifier family) */
export const namesItsSubject = (type: string): boolean => type.startsWith('named:') || type.startsWith('family:');
