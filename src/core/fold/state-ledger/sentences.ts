/** Splitting prose into statements, and the words of a statement that say what it is about. */

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
    'update updated correction change changed changes moved move set make made use using our my your we i you me ' +
    'us they them he she his her not no do does did will would should shall can could may might must have has had ' +
    'here there what which who when where why how all any some each every one per about into onto over up down out ' +
    'plan note fyi okay ok sure scratch earlier before previous previously said told value rather like want ' +
    "prefer let's lets let good news heads got i'd i'm i'll i've we'd we'll we're you'd"
  ).split(' ')
);

/** A value in a statement: anything with a digit, a capitalised word past the first, a quoted or code span. */
export function statementValues(text: string): string[] {
  const values: string[] = [];
  for (const m of text.matchAll(/[`"“'‘]([^`"”'’]{1,60})[`"”'’]/g)) if (m[1]) values.push(m[1]);
  const words = text.split(/\s+/);
  words.forEach((raw, i) => {
    const w = raw.replace(/^[^\w$#@~/.-]+|[^\w%/]+$/g, '');
    if (!w) return;
    const capital = /^[A-Z]/.test(w) && !/^I(?:'|’|$)/.test(w) && (i > 0 || !STOP.has(w.toLowerCase()));
    if (/\d/.test(w) || /[/@_]/.test(w) || capital) values.push(w);
  });
  return values;
}

/**
 * A word without its inflection, so that "deploys", "deployed", "deploying" and "deployment" are one subject word
 * (a light suffix strip: the stem keeps at least four letters).
 *
 * @returns the stem
 */
export function stem(w: string): string {
  return w.replace(/(?<=[a-z]{4})(?:ments?|ings?|ed|es|s)$/, '').replace(/(?<=[a-z]{3})s$/, '');
}

/**
 * The subject words of a statement: lower-cased content words that are not values and not stop words. Two
 * statements about the same thing with different values share them whatever the word order ("the deploy window is
 * Tuesday" / "Thursday is the deploy window now").
 *
 * @returns the distinct subject words, sorted
 */
export function subjectWords(text: string): string[] {
  const values = new Set(statementValues(text).map((v) => v.toLowerCase()));
  const words = new Set<string>();
  for (const raw of text.toLowerCase().split(/[^a-z0-9_'’-]+/)) {
    const w = raw.replace(/^['’-]+|['’-]+$/g, '');
    if (w.length < 3 || STOP.has(w) || values.has(w) || /\d/.test(w)) continue;
    words.add(stem(w));
  }
  return [...words].sort();
}
