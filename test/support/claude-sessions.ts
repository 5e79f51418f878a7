/**
 * Generated Claude-style agent sessions in the Anthropic Messages shape, from a seed: thinking blocks with
 * signatures, redacted thinking, parallel tool_use blocks answered by tool_result blocks first in the next user turn
 * (string or block content, errors, text after them), server-tool and MCP pairs inside one assistant turn, images,
 * documents, search results, citations, cache_control, block types no one documents yet, interrupted calls, and
 * sometimes a last turn whose calls are still running. Written from the API's documentation, not from the adapter.
 */
import { mulberry32 } from './rng';

type Msg = { role: string; content: unknown };

/** A 2×3 PNG header, enough for an image's size to be read (1×1 pixel data is not needed for pricing). */
const PNG_2x3 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR4nGP4z8DwHwQZYAwAiqIP8aRQgAcAAAAASUVORK5CYII=';

/** Options of {@link claudeSession}. */
export interface SessionShape {
  /** Assistant steps. @default 8–40 */
  steps?: number;
  /** Words of a typical tool output. @default 20–400 */
  outputWords?: number;
}

/**
 * @returns the messages of one generated session (a system element first in about half), deterministic per seed.
 */
export function claudeSession(seed: number, shape: SessionShape = {}): Msg[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const words = (n: number): string =>
    Array.from({ length: n }, (_, i) =>
      pick(['file', 'src/app.ts', 'error', 'TICKET-4711', 'ok', 'run', `v${i}`, 'the'])
    ).join(' ');
  let ids = 0;
  const id = (p: string): string => `${p}_${seed}_${++ids}`;
  const out: Msg[] = [];
  if (rnd() < 0.5) out.push({ role: 'system', content: `You are a coding agent. Seed ${seed}.` });
  const steps = shape.steps ?? int(8, 40);
  const outWords = shape.outputWords ?? int(20, 400);
  let pendingUser: Record<string, unknown>[] = [
    { type: 'text', text: `Fix ${words(8)}` },
    ...(rnd() < 0.2 ? [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_2x3 } }] : []),
    ...(rnd() < 0.15
      ? [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: words(60) }, title: 'notes' }]
      : []),
  ];
  for (let s = 0; s < steps; s++) {
    out.push({ role: 'user', content: pendingUser });
    const blocks: Record<string, unknown>[] = [];
    const r = rnd();
    if (r < 0.35) blocks.push({ type: 'thinking', thinking: words(int(5, 60)), signature: `sig-${id('s')}` });
    else if (r < 0.42) blocks.push({ type: 'redacted_thinking', data: `enc-${id('r')}` });
    if (rnd() < 0.6) {
      const text: Record<string, unknown> = { type: 'text', text: words(int(3, 40)) };
      if (rnd() < 0.1)
        text.citations = [
          { type: 'char_location', cited_text: 'x', document_index: 0, start_char_index: 0, end_char_index: 1 },
        ];
      blocks.push(text);
    }
    if (rnd() < 0.12) {
      const sid = id('srvtoolu');
      blocks.push({ type: 'server_tool_use', id: sid, name: 'web_search', input: { query: words(3) } });
      blocks.push({
        type: 'web_search_tool_result',
        tool_use_id: sid,
        content: [{ type: 'web_search_result', url: 'https://e.x', title: 't', encrypted_content: 'e' }],
      });
      blocks.push({ type: 'text', text: words(10) });
    }
    if (rnd() < 0.08) {
      const mid = id('mcptoolu');
      blocks.push({ type: 'mcp_tool_use', id: mid, name: 'lookup', server_name: 'crm', input: { q: words(2) } });
      blocks.push({
        type: 'mcp_tool_result',
        tool_use_id: mid,
        is_error: false,
        content: [{ type: 'text', text: words(12) }],
      });
    }
    if (rnd() < 0.04) blocks.push({ type: 'future_block', payload: words(5) }); // a type no one documents yet
    const last = s === steps - 1;
    const nCalls = rnd() < 0.75 ? (rnd() < 0.3 ? int(2, 4) : 1) : 0;
    const calls = Array.from({ length: nCalls }, () => ({
      type: 'tool_use',
      id: id('toolu'),
      name: pick(['Bash', 'Read', 'Edit', 'Grep']),
      input: { command: words(int(2, 10)) },
      ...(rnd() < 0.1 ? { cache_control: { type: 'ephemeral' } } : {}),
    }));
    blocks.push(...calls);
    if (blocks.length === 0) blocks.push({ type: 'text', text: words(5) });
    out.push({ role: 'assistant', content: blocks });
    if (last) break; // the last turn's calls, if any, are still running
    const interrupted = nCalls > 0 && rnd() < 0.05;
    if (interrupted) {
      // The user interrupts: the calls are never answered (the conversation writes "not run" results for them).
      pendingUser = [{ type: 'text', text: '[Request interrupted by user] ' + words(4) }];
      continue;
    }
    pendingUser = calls.map((c) => ({
      type: 'tool_result',
      tool_use_id: c.id,
      content:
        rnd() < 0.7
          ? words(Math.max(1, Math.round(outWords * (0.2 + rnd()))))
          : [
              { type: 'text', text: words(int(5, 50)) },
              ...(rnd() < 0.2
                ? [
                    {
                      type: 'search_result',
                      source: 'https://d.x',
                      title: 'd',
                      content: [{ type: 'text', text: words(8) }],
                    },
                  ]
                : []),
            ],
      ...(rnd() < 0.1 ? { is_error: true } : {}),
    }));
    if (nCalls === 0 || rnd() < 0.15) pendingUser.push({ type: 'text', text: words(int(2, 20)) });
  }
  if (out[out.length - 1]!.role === 'user') out.pop();
  return out;
}
