/** Which kind of ledger entry a statement is, read from its wording. Unclassified statements are kept as `said`. */
import type { EntryKind } from './types';

// Normative wording: a rule the agent must keep following.
const RULE =
  /\b(?:never|always|must(?:n['’]t)?|do not|don['’]t|does not|doesn['’]t|shall not|cannot|can['’]t|only|forbidden|not allowed|prohibited|required|mandatory|under no circumstances|make sure|ensure|avoid|refrain|no one|nobody|off[- ]limits)\b/i;
// A limit: bounding words, or a rule that carries a number.
const LIMIT =
  /\b(?:at most|at least|no more than|no less than|no fewer than|up to|maximum|minimum|max|min|limit|cap|capped|budget|quota|under|below|above|exceed|within)\b/i;
const DECISION =
  /\b(?:decided|decide|decision|go with|going with|went with|chose|choose|chosen|settled on|switch(?:ed)? to|instead of|we['’]ll use|we will use|let['’]s use|opted)\b/i;
const PREFERENCE =
  /\b(?:i prefer|i['’]d prefer|i would prefer|prefer(?:red|ence)?|i like|i['’]d like|i would like|i['’]d rather|i would rather|i want|please (?:use|keep|write|answer|reply|format)|my style)\b/i;
const GOAL =
  /\b(?:goal|objective|task|todo|to-do|next step|next,|then we|after that|still (?:have|need) to|need to|needs to|remaining|milestone|deadline|ship|finish|complete)\b/i;
const NUMBER = /\d/;
// A request for good worded as a question ("Could you switch to German from here on?"): a standing instruction, not
// something to answer.
const STANDING_REQUEST =
  /^(?:\W*\w+\W+)?(?:could|can|would|will) you\b(?=.*\b(?:from (?:now|here) on|going forward|always|never|every time|whenever|for (?:all|every|the rest))\b)/i;

/**
 * Classifies one statement.
 *
 * @param fromUser statements of the user and of injected reminders may be rules; the assistant's only decisions
 * @returns the kind, or `undefined` for an assistant statement that is no decision
 */
export function classifyStatement(text: string, fromUser: boolean): EntryKind | undefined {
  if (!fromUser) return DECISION.test(text) ? 'decision' : undefined;
  if (/\?\s*$/.test(text))
    return STANDING_REQUEST.test(text) ? classifyStatement(text.replace(/\?\s*$/, '.'), true) : 'question';
  if (PREFERENCE.test(text)) return 'preference';
  if (NUMBER.test(text) && (LIMIT.test(text) || RULE.test(text))) return 'constraint';
  if (RULE.test(text)) return 'rule';
  if (DECISION.test(text)) return 'decision';
  if (GOAL.test(text)) return 'goal';
  if (NUMBER.test(text) || /\s(?:is|are|=|:)\s/.test(text)) return 'fact';
  return 'said';
}
