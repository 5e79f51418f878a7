// Hand-built transcripts for the fold tests: Items made directly, so these tests do not depend on how normalize reads
// a format. Pairing follows the model's rule (nearest earlier unanswered call with that id).
import type { Item, ItemRole, ToolCall, Transcript } from '../../../src/core/messages/types';

export interface Spec {
  role: ItemRole;
  text?: string;
  id?: string;
  /** Call ids this item makes (tool name `tool`, arguments `{}`), or full calls. */
  calls?: (string | ToolCall)[];
  /** For a tool result: the call id it answers. */
  answers?: string;
  turnStart?: boolean;
}

/** A transcript of hand-made items; `raw` is a small object naming the index so tests can see what was kept. */
export function transcript(specs: Spec[], format: Transcript['format'] = 'chat'): Transcript {
  const items: Item[] = [];
  const open: { callId: string; itemIndex: number; callIndex: number; name: string }[] = [];
  specs.forEach((s, index) => {
    const calls = (s.calls ?? []).map((c) => (typeof c === 'string' ? { id: c, name: 'tool', arguments: '{}' } : c));
    const item: Item = {
      index,
      role: s.role,
      turnStart: s.turnStart ?? s.role === 'user',
      calls,
      text: s.text ?? `${s.role} ${index}`,
      raw: { n: index, role: s.role, text: s.text ?? `${s.role} ${index}` },
      ...(s.id !== undefined ? { id: s.id } : {}),
    };
    if (s.answers !== undefined) {
      let k = -1;
      for (let j = open.length - 1; j >= 0; j--)
        if (open[j]!.callId === s.answers) {
          k = j;
          break;
        }
      if (k < 0) throw new Error(`fixture: no open call ${s.answers} for item ${index}`);
      item.answers = open[k]!;
      open.splice(k, 1);
    }
    calls.forEach((c, callIndex) => open.push({ callId: c.id, itemIndex: index, callIndex, name: c.name }));
    items.push(item);
  });
  return { format, items };
}

/** Plan layout for a cut at `split`: instructions of the head hoisted, `pinned` kept, everything from `split` on. */
export function layout(t: Transcript, split: number, pinned: number[] = []) {
  const instructions = t.items.filter((i) => i.index < split && i.role === 'instructions').map((i) => i.index);
  const tail = t.items.filter((i) => i.index >= split).map((i) => i.index);
  return { fold: true, split, instructions, pinned, tail, keep: [...instructions, ...pinned, ...tail] };
}
