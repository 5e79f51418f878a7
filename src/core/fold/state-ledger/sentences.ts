/** Splitting prose into statements, and the words of a statement that say what it is about. */

import { stem as porter2 } from 'porter2';
import { memoByText } from './text-memo';

// A sentence ends at . ! ? followed by space and a capital, quote or bracket; list markers and tags are not content.
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z0-9"'“‘([])/;
const LIST_MARKER = /^\s*(?:[-*•]|\d{1,3}[.)])\s+/;

/**
 * The statements of a text: one per sentence, list markers stripped, whitespace collapsed.
 *
 * @returns non-empty statements in order
 */
export function splitStatements(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    const bare = line.replace(LIST_MARKER, '').trim();
    if (!bare) continue;
    for (const s of bare.split(SENTENCE_END)) {
      const t = s.replace(/\s+/g, ' ').trim();
      if (t.length >= 3 && /[A-Za-z0-9]/.test(t)) out.push(t);
    }
  }
  return out;
}

// Words that say nothing about a statement's subject: articles, pronouns, auxiliaries, update markers.
const STOP = new Set(
  (
    "a an the this that these those it its it’s it's is are was were be been being am to of in on at for from by with " +
    'and or but so as if then than now just actually instead please new current currently still also again ' +
    'update updated correction change changed changes moved move switch switched switching set make made use using our my your we i you me ' +
    'us they them he she his her not no do does did will would should shall can could may might must have has had ' +
    'here there what which who when where why how all any some each every one per about into onto over up down out ' +
    'plan note fyi okay ok sure scratch earlier before previous previously said told value rather like want ' +
    "prefer let's lets let good news heads got i'd i'm i'll i've we'd we'll we're you'd"
  ).split(' ')
);

/** @returns whether `w` (lower-cased) says nothing about a statement's subject */
export const isStopWord = (w: string): boolean => STOP.has(w);

// After a capitalised first word, a verb that makes it the subject of the sentence: "Keiko has taken over on-call".
const NAMED_SUBJECT =
  /^(?:is|was|are|were|has|had|have|will|would|can|could|should|says|said|wants|needs|asked|['’]s)$/i;

/**
 * Whether a sentence's capitalised first word is a name: an acronym or a mixed-case word ("AWS", "PostgreSQL"), or a
 * word the next one makes the subject of a verb ("Keiko has …", "Postgres is …"). A capital there is the sentence's,
 * not a name's, otherwise: "Send me the update by email." states no value "Send".
 *
 * @returns whether the first word counts as a value
 */
function firstWordIsName(w: string, next: string | undefined): boolean {
  if (STOP.has(w.toLowerCase())) return false;
  if (/^[A-Z0-9]{2,}$|^[A-Z]\w*[A-Z]/.test(w)) return true;
  return NAMED_SUBJECT.test((next ?? '').replace(/[^\w'’]+$/, ''));
}

/**
 * A value in a statement: anything with a digit, a capitalised word past the first (the first when it is a name, see
 * {@link firstWordIsName}) or a word with a capitalised part ("mid-March", "pre-GA"), a quoted or code span.
 */
export const statementValues = memoByText((text: string): readonly string[] => Object.freeze(valuesOf(text)));

function valuesOf(text: string): string[] {
  const values: string[] = [];
  for (const m of text.matchAll(/[`"“'‘]([^`"”'’]{1,60})[`"”'’]/g)) if (m[1]) values.push(m[1]);
  const words = text.split(/\s+/).filter(Boolean);
  words.forEach((raw, i) => {
    const w = raw.replace(/^[^\w$#@~/.-]+|[^\w%/]+$/g, '');
    if (!w) return;
    const capital =
      (/^[A-Z]/.test(w) && !/^I(?:'|’|$)/.test(w) && (i > 0 || firstWordIsName(w, words[1]))) || /\w-[A-Z]/.test(w);
    // A host or file name ("staging.example.dev", "setup.py") is a value too.
    if (/\d/.test(w) || /[/@_]/.test(w) || /\w\.[a-z]{2,}$/i.test(w) || capital) values.push(w);
  });
  return values;
}

/**
 * A word without its inflection, so that "deploys", "deployed", "deploying" and "deployment" are one subject word,
 * and "groceries" and "grocery", "indentation" and "indent" too: the Porter2 stemmer (the `porter2` package), a
 * general algorithm rather than a list read off any fact set.
 *
 * @returns the stem
 */
export const stem = memoByText((w: string): string => stemOf(w));

function stemOf(w: string): string {
  const s = porter2(w);
  // Porter keeps a final s after u ("bonus"); an acronym's plural is one ("CPUs" and "the CPU quota").
  return s === w && /^[a-z]{2,}[^s]s$/.test(w) ? w.slice(0, -1) : s;
}

/**
 * The subject words of a statement: lower-cased content words that are not values and not stop words. Two
 * statements about the same thing with different values share them whatever the word order ("the deploy window is
 * Tuesday" / "Thursday is the deploy window now").
 *
 * @returns the distinct subject words, sorted
 */
export const subjectWords = memoByText((text: string): readonly string[] => Object.freeze(subjectWordsOf(text)));

function subjectWordsOf(text: string): string[] {
  const values = new Set(statementValues(text).map((v) => v.toLowerCase()));
  const words = new Set<string>();
  // "per day" is "daily": "5,000 calls per day" and "the daily cap" name one slot ("last week" is no weekly anything).
  const periodic = text
    .toLowerCase()
    .replace(/\b(?:per|a|an|each|every) (hour|day|week|month|year)\b/g, (_, p: string) =>
      p === 'day' ? 'daily' : `${p}ly`
    );
  for (const raw of periodic.split(/[^a-z0-9_'’-]+/)) {
    const w = raw.replace(/^['’-]+|['’-]+$/g, '');
    if (w.length < 3 || STOP.has(w) || values.has(w) || /\d/.test(w)) continue;
    words.add(stem(w));
  }
  return [...words].sort();
}

/**
 * How many words of `other` an acronym of `text` spells out ("164,500 MAU" and "the monthly active users number":
 * three), each acronym counted once. Capitals joined to an identifier by a hyphen are its prefix, not an acronym:
 * "INC-20931" does not spell out "indent num comp…".
 *
 * @returns the number of words, 0 when no acronym of `text` is spelled out in `other`
 */
export function acronymWords(text: string, other: string): number {
  const words = other.toLowerCase().match(/[a-z]+/g) ?? [];
  let found = 0;
  for (const acronym of new Set(text.match(/(?<![\w-])[A-Z]{3,5}s?(?![\w-])/g) ?? [])) {
    const letters = acronym.replace(/s$/, '').toLowerCase();
    for (let i = 0; i + letters.length <= words.length; i++) {
      const run = words.slice(i, i + letters.length);
      if (run.every((w, k) => w[0] === letters[k] && w.length > 1 && !STOP.has(w))) {
        found += run.length;
        break;
      }
    }
  }
  return found;
}
