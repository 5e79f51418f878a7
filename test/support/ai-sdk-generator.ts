/**
 * fast-check generator of AI SDK agent sessions as `generateText` leaves them in `response.messages`: user messages
 * (string, or parts with images and files), assistant steps that answer (sometimes with signed reasoning and
 * providerOptions), make parallel tool calls answered by one tool message (every output type), run a provider tool
 * inside the message, or ask for approval (request, then a tool message with the response, then the result); the last
 * step may leave calls or an approval pending.
 */
import fc from 'fast-check';
import { exchanges, prose } from './exchanges';

const TOOLS = ['getOrder', 'searchDocs', 'runQuery', 'sendMail'];

type Step =
  | { kind: 'answer'; text: string; reasoning: string | null }
  | { kind: 'calls'; calls: { tool: number; input: string; output: string; type: number }[]; reasoning: string | null }
  | { kind: 'provider'; output: string; text: string }
  | { kind: 'approval'; input: string; approved: boolean; output: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('answer' as const), text: prose(120), reasoning: fc.option(prose(30)) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('calls' as const),
      calls: fc.array(fc.record({ tool: fc.nat(3), input: prose(8), output: prose(700), type: fc.nat(4) }), {
        minLength: 1,
        maxLength: 3,
      }),
      reasoning: fc.option(prose(30)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('provider' as const), output: prose(100), text: prose(40) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('approval' as const),
      input: prose(8),
      approved: fc.boolean(),
      output: prose(200),
    }),
  }
);

/** A tool result output of one of the union's shapes. */
function output(type: number, text: string): Record<string, unknown> {
  switch (type) {
    case 0:
      return { type: 'text', value: text };
    case 1:
      return { type: 'json', value: { rows: text.split(' ') } };
    case 2:
      return { type: 'error-text', value: text };
    case 3:
      return { type: 'content', value: [{ type: 'text', text }] };
    default:
      return { type: 'error-json', value: { message: text } };
  }
}

export interface AiSdkGenerated {
  messages: Record<string, unknown>[];
}

/** A session of 1–12 exchanges. */
export const aiSdkConversation: fc.Arbitrary<AiSdkGenerated> = fc
  .record({
    system: fc.boolean(),
    exchanges: exchanges(step),
    pending: fc.constantFrom('none', 'calls', 'approval'),
  })
  .map(({ system, exchanges, pending }) => {
    const messages: Record<string, unknown>[] = [];
    let n = 0;
    if (system)
      messages.push({
        role: 'system',
        content: 'You are a support agent.',
        providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
      });
    exchanges.forEach((ex, e) => {
      if (ex.media === 'none') messages.push({ role: 'user', content: ex.user || 'continue' });
      else {
        const media =
          ex.media === 'image'
            ? { type: 'image', image: `https://example.com/${e}.png`, mediaType: 'image/png' }
            : { type: 'file', data: 'JVBERi0xLjQK', mediaType: 'application/pdf', filename: `doc-${e}.pdf` };
        messages.push({ role: 'user', content: [{ type: 'text', text: ex.user || 'see attached' }, media] });
      }
      ex.steps.forEach((s, k) => {
        const lastStep = e === exchanges.length - 1 && k === ex.steps.length - 1;
        const reasoning = (text: string | null) =>
          text === null
            ? []
            : [{ type: 'reasoning', text, providerOptions: { anthropic: { signature: `sig-${n++}` } } }];
        if (s.kind === 'answer') {
          messages.push({
            role: 'assistant',
            content: [
              ...reasoning(s.reasoning),
              { type: 'text', text: s.text || 'ok', providerOptions: { openai: { itemId: `msg_${n++}` } } },
            ],
          });
        } else if (s.kind === 'provider') {
          const id = `ws-${n++}`;
          messages.push({
            role: 'assistant',
            content: [
              {
                type: 'tool-call',
                toolCallId: id,
                toolName: 'web_search',
                input: { query: s.text },
                providerExecuted: true,
              },
              {
                type: 'tool-result',
                toolCallId: id,
                toolName: 'web_search',
                output: { type: 'text', value: s.output },
              },
              { type: 'text', text: s.text || 'found it' },
            ],
          });
        } else if (s.kind === 'calls') {
          const ids = s.calls.map(() => `tc-${n++}`);
          messages.push({
            role: 'assistant',
            content: [
              ...reasoning(s.reasoning),
              ...s.calls.map((c, j) => ({
                type: 'tool-call',
                toolCallId: ids[j],
                toolName: TOOLS[c.tool],
                input: { q: c.input },
              })),
            ],
          });
          if (lastStep && pending === 'calls') return;
          messages.push({
            role: 'tool',
            content: s.calls.map((c, j) => ({
              type: 'tool-result',
              toolCallId: ids[j],
              toolName: TOOLS[c.tool],
              output: output(c.type, c.output),
            })),
          });
        } else {
          const id = `tc-${n++}`;
          const approvalId = `ap-${n++}`;
          messages.push({
            role: 'assistant',
            content: [
              { type: 'tool-call', toolCallId: id, toolName: 'sendMail', input: { body: s.input } },
              { type: 'tool-approval-request', approvalId, toolCallId: id },
            ],
          });
          if (lastStep && pending === 'approval') return;
          messages.push({
            role: 'tool',
            content: [{ type: 'tool-approval-response', approvalId, approved: s.approved }],
          });
          const out = s.approved
            ? { type: 'text', value: s.output }
            : { type: 'execution-denied', reason: 'denied by user' };
          messages.push({
            role: 'tool',
            content: [{ type: 'tool-result', toolCallId: id, toolName: 'sendMail', output: out }],
          });
        }
      });
    });
    return { messages };
  });
