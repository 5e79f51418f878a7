/**
 * fast-check generator of Gemini agent sessions as the API produces them: user turns (text, sometimes an image or a
 * file), model turns that answer, think (thought parts and thought signatures), run code, or make parallel function
 * calls (with or without ids) answered by the next user turn; the last model turn may leave its calls pending.
 */
import fc from 'fast-check';
import { exchanges, prose } from './exchanges';

const SIGNATURES = ['CiQBcsjafH3nZzQ1YmRh', 'Ei8KLQFyyNp8b2Z0d2Fy', 'EqQBCkYIBhgCKkBsaWdu'];
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const TOOLS = ['read_file', 'search', 'run_tests', 'list_dir'];

type Step =
  | { kind: 'answer'; text: string; thought: string | null; signature: number | null }
  | { kind: 'code'; code: string; output: string }
  | {
      kind: 'calls';
      calls: { tool: number; args: string; output: string }[];
      withIds: boolean;
      signature: number | null;
      thought: string | null;
    };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      text: prose(120),
      thought: fc.option(prose(30)),
      signature: fc.option(fc.nat(2)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('code' as const), code: prose(20), output: prose(40) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('calls' as const),
      calls: fc.array(fc.record({ tool: fc.nat(3), args: prose(8), output: prose(700) }), {
        minLength: 1,
        maxLength: 3,
      }),
      withIds: fc.boolean(),
      signature: fc.option(fc.nat(2)),
      thought: fc.option(prose(30)),
    }),
  }
);

export interface GeminiGenerated {
  contents: Record<string, unknown>[];
  /** Whether the last model turn's calls are left unanswered. */
  pending: boolean;
}

/** A session of 1–12 exchanges, optionally with a system element and a pending last call turn. */
export const geminiConversation: fc.Arbitrary<GeminiGenerated> = fc
  .record({
    system: fc.boolean(),
    exchanges: exchanges(step),
    pending: fc.boolean(),
  })
  .map(({ system, exchanges, pending }) => {
    const contents: Record<string, unknown>[] = [];
    let callNo = 0;
    if (system) contents.push({ role: 'system', parts: [{ text: 'You are a careful coding agent.' }] });
    exchanges.forEach((ex, e) => {
      const userParts: unknown[] = [{ text: ex.user || 'continue' }];
      if (ex.media === 'image') userParts.push({ inlineData: { mimeType: 'image/png', data: PNG_1X1 } });
      if (ex.media === 'file') userParts.push({ fileData: { mimeType: 'application/pdf', fileUri: `files/doc-${e}` } });
      contents.push({ role: 'user', parts: userParts });
      ex.steps.forEach((s, k) => {
        const lastStep = e === exchanges.length - 1 && k === ex.steps.length - 1;
        if (s.kind === 'answer') {
          const parts: Record<string, unknown>[] = [];
          if (s.thought !== null) parts.push({ text: s.thought, thought: true });
          const text: Record<string, unknown> = { text: s.text || 'done' };
          if (s.signature !== null) text.thoughtSignature = SIGNATURES[s.signature];
          parts.push(text);
          contents.push({ role: 'model', parts });
        } else if (s.kind === 'code') {
          contents.push({
            role: 'model',
            parts: [
              { executableCode: { language: 'PYTHON', code: `print(${JSON.stringify(s.code)})` } },
              { codeExecutionResult: { outcome: 'OUTCOME_OK', output: s.output } },
            ],
          });
        } else {
          const ids = s.calls.map(() => `fc-${callNo++}`);
          const parts: Record<string, unknown>[] = [];
          if (s.thought !== null) parts.push({ text: s.thought, thought: true });
          s.calls.forEach((c, j) => {
            const fn: Record<string, unknown> = { name: TOOLS[c.tool], args: { q: c.args } };
            if (s.withIds) fn.id = ids[j];
            const part: Record<string, unknown> = { functionCall: fn };
            if (j === 0 && s.signature !== null) part.thoughtSignature = SIGNATURES[s.signature];
            parts.push(part);
          });
          contents.push({ role: 'model', parts });
          if (lastStep && pending) return;
          contents.push({
            role: 'user',
            parts: s.calls.map((c, j) => ({
              functionResponse: {
                ...(s.withIds ? { id: ids[j] } : {}),
                name: TOOLS[c.tool],
                response: { output: c.output },
              },
            })),
          });
        }
      });
    });
    const last = contents[contents.length - 1]!;
    const endsPending = last.role === 'model' && (last.parts as Record<string, unknown>[]).some((p) => p.functionCall);
    return { contents, pending: endsPending };
  });
