/**
 * Gemini's rules for a `generateContent` request, written from the API docs (function calling, thinking and thought
 * signatures), independently of the adapter but for the list of a part's data fields (the API's `Part` union, which
 * the adapter states): applied to what a fold leaves, after the `system` elements are moved to `systemInstruction`
 * and adjacent user turns joined as `toGeminiRequest` does for sending.
 */
import { DATA_FIELDS } from '../../src/core/messages/gemini';

type Content = { role?: unknown; parts?: unknown };
type Part = Record<string, unknown>;

const partsOf = (c: Content): Part[] => (Array.isArray(c.parts) ? (c.parts as Part[]) : []);
const calls = (c: Content) =>
  partsOf(c)
    .filter((p) => p.functionCall !== undefined)
    .map((p) => p.functionCall as Part);
const responses = (c: Content) =>
  partsOf(c)
    .filter((p) => p.functionResponse !== undefined)
    .map((p) => p.functionResponse as Part);
const signed = (c: Content) => partsOf(c).some((p) => p.thoughtSignature !== undefined || p.thought === true);
const sameNames = (a: Part[], b: Part[]) =>
  JSON.stringify(a.map((x) => x.name).sort()) === JSON.stringify(b.map((x) => x.name).sort());

/**
 * @param input the conversation before the fold (system elements first or anywhere; the fold hoists them).
 * @param output the folded context.
 * @returns every broken rule, empty when Gemini would accept the request and the signed turns are intact.
 */
export function geminiRuleViolations(input: readonly unknown[], output: readonly unknown[]): string[] {
  const problems: string[] = [];
  const els = output as Content[];
  let firstContent = els.findIndex((e) => e.role !== 'system');
  if (firstContent < 0) firstContent = els.length;
  if (els.slice(firstContent).some((e) => e.role === 'system')) problems.push('a system element after the contents');
  // As sent: system out, adjacent user turns joined.
  const contents: Content[] = [];
  for (const e of els.slice(firstContent)) {
    const last = contents.at(-1);
    if (e.role === 'user' && last?.role === 'user')
      contents[contents.length - 1] = { role: 'user', parts: [...partsOf(last), ...partsOf(e)] };
    else contents.push(e);
  }
  if (contents.length > 0 && contents[0]!.role !== 'user')
    problems.push(`the first content is a '${String(contents[0]!.role)}' turn, not a user turn`);
  contents.forEach((c, i) => {
    if (c.role !== 'user' && c.role !== 'model') problems.push(`content ${i}: role ${String(c.role)}`);
    if (partsOf(c).length === 0) problems.push(`content ${i}: no parts`);
    for (const p of partsOf(c)) {
      if (DATA_FIELDS.filter((f) => p[f] !== undefined).length !== 1)
        problems.push(`content ${i}: a part without exactly one data field`);
    }
    const made = calls(c);
    const answered = responses(c);
    if (answered.length > 0) {
      const prev = contents[i - 1];
      const asked = prev && prev.role === 'model' ? calls(prev) : [];
      if (asked.length !== answered.length || !sameNames(asked, answered)) {
        problems.push(`content ${i}: ${answered.length} function response(s) after a turn of ${asked.length} call(s)`);
      }
      for (const r of answered) {
        if (r.id !== undefined && !asked.some((a) => a.id === r.id))
          problems.push(`content ${i}: response id ${JSON.stringify(r.id)} answers no call of the turn before`);
      }
    }
    if (made.length > 0 && i < contents.length - 1 && responses(contents[i + 1]!).length === 0) {
      problems.push(`content ${i}: function calls not answered by the next turn`);
    }
  });
  // Signed turns: byte for byte as given, or gone.
  const given = new Map<string, number>();
  for (const e of input)
    if (signed(e as Content)) given.set(JSON.stringify(e), (given.get(JSON.stringify(e)) ?? 0) + 1);
  for (const e of els) {
    if (!signed(e)) continue;
    const key = JSON.stringify(e);
    const left = given.get(key) ?? 0;
    if (left === 0) problems.push('a turn with a thought signature was changed (or repeated)');
    else given.set(key, left - 1);
  }
  // The conversation's pending calls stay, last.
  const lastIn = input[input.length - 1] as Content | undefined;
  if (
    lastIn &&
    lastIn.role === 'model' &&
    calls(lastIn).length > 0 &&
    JSON.stringify(output[output.length - 1]) !== JSON.stringify(lastIn)
  ) {
    problems.push('the pending call turn is not kept last');
  }
  return problems;
}
