/**
 * Planting independent facts into a real corpus session: a user fact as a user turn of its own, an assistant fact in
 * an assistant turn's text, a tool fact as the result of a call of its own, each early (5–25%), in the middle (40–60%) or
 * late (70–90%) of the session; an update's first statement early or in the middle, its later one after it.
 */
import { rng } from '../generator';
import type { IndependentFact, IndependentUpdate, Speaker } from './facts';

type Message = Record<string, unknown>;

/** Where in the session a fact goes. */
export type Position = 'early' | 'middle' | 'late';
export const POSITIONS: readonly Position[] = ['early', 'middle', 'late'];

/** A planted fact or update: what it is and the message index (in the planted session) that carries it. */
export interface PlantedFact {
  id: string;
  type: string;
  speaker: Speaker;
  position: Position;
  at: number;
  /** Probe groups (all must be found in one message, each by any alternative); an update: its new value. */
  probes: string[][];
  /** Updates only: the replaced value's alternatives, the message that first stated it, and that statement. */
  update?: { oldValue: string[]; firstAt: number; first: string };
}

const SPAN: Record<Position, [number, number]> = { early: [0.05, 0.25], middle: [0.4, 0.6], late: [0.7, 0.9] };

interface Placement {
  id: string;
  speaker: Speaker;
  text: string;
  target: number;
}

/**
 * Plants `facts` and `updates` into `messages` (not changed). Fact `k` goes to position `(k + seed) mod 3`.
 *
 * @returns the planted session and where each fact went
 */
export function plantFacts(
  messages: readonly Message[],
  facts: readonly IndependentFact[],
  updates: readonly IndependentUpdate[],
  seed: number
): { messages: Message[]; planted: PlantedFact[] } {
  const r = rng(seed * 7919 + 17);
  const n = messages.length;
  const firstUser = messages.findIndex((m) => m.role === 'user');
  const slots: Record<Speaker, number[]> = {
    // A user turn (or a call with its result) goes before a user or assistant message after the task, never between
    // a call and its result.
    user: messages
      .map((_, i) => i)
      .filter((i) => i > firstUser && (messages[i]!.role === 'user' || messages[i]!.role === 'assistant')),
    assistant: messages
      .map((_, i) => i)
      .filter(
        (i) =>
          messages[i]!.role === 'assistant' &&
          (messages[i]!.content == null || typeof messages[i]!.content === 'string')
      ),
    tool: messages
      .map((_, i) => i)
      .filter((i) => messages[i]!.role === 'tool' && typeof messages[i]!.content === 'string'),
  };
  const used = new Set<string>();
  const slotFor = (speaker: Speaker, target: number): number => {
    const list = speaker === 'assistant' && slots.assistant.length > 0 ? slots.assistant : slots.user;
    const free = list.filter((s) => !used.has(`${speaker}:${s}`));
    const pool = free.length > 0 ? free : list;
    const best = pool.reduce((b, s) => (Math.abs(s - target) < Math.abs(b - target) ? s : b), pool[0] ?? n);
    used.add(`${speaker}:${best}`);
    return best;
  };
  const at = (p: Position): number => {
    const [lo, hi] = SPAN[p];
    return Math.floor(n * (lo + r() * (hi - lo)));
  };
  const placements: Placement[] = [];
  const planted: Omit<PlantedFact, 'at'>[] = [];
  const target = new Map<string, number>();
  facts.forEach((f, k) => {
    const position = POSITIONS[(k + seed) % 3]!;
    const t = slotFor(f.speaker, at(position));
    placements.push({ id: f.id, speaker: f.speaker, text: f.text, target: t });
    planted.push({ id: f.id, type: f.type, speaker: f.speaker, position, probes: f.probes });
  });
  updates.forEach((u, k) => {
    const firstPos: Position = (k + seed) % 2 === 0 ? 'early' : 'middle';
    const first = slotFor(u.speaker, at(firstPos));
    const laterTarget = Math.min(n - 1, first + Math.floor(n * (0.2 + 0.3 * r())));
    const later = slotFor(u.speaker, laterTarget);
    const position: Position = later < n * 0.33 ? 'early' : later < n * 0.66 ? 'middle' : 'late';
    placements.push({ id: `${u.id}-first`, speaker: u.speaker, text: u.first, target: first });
    placements.push({ id: u.id, speaker: u.speaker, text: u.later, target: later });
    planted.push({
      id: u.id,
      type: 'update',
      speaker: u.speaker,
      position,
      probes: [u.newValue],
      update: { oldValue: u.oldValue, firstAt: -1, first: u.first },
    });
  });
  const out: Message[] = [];
  messages.forEach((m, i) => {
    const here = placements.filter((p) => p.target === i);
    const inlined = (x: Placement): boolean => x.speaker === 'assistant' && slots.assistant.length > 0;
    for (const p of here.filter((x) => !inlined(x))) {
      if (p.speaker === 'tool') {
        // A tool result of its own, answering a call made for it.
        const id = `call_planted_${p.id}`;
        const call = { id, type: 'function', function: { name: 'run', arguments: JSON.stringify({ ref: p.id }) } };
        out.push({ role: 'assistant', content: null, tool_calls: [call] });
        target.set(p.id, out.length);
        out.push({ role: 'tool', tool_call_id: id, content: p.text });
      } else {
        target.set(p.id, out.length);
        out.push({ role: 'user', content: p.text });
      }
    }
    const inline = here.filter(inlined);
    if (inline.length === 0) {
      out.push(m);
      return;
    }
    for (const p of inline) target.set(p.id, out.length);
    const text = inline.map((p) => p.text).join('\n');
    const old = typeof m.content === 'string' ? m.content : '';
    out.push({ ...m, content: old ? `${old}\n\n${text}` : text });
  });
  return {
    messages: out,
    planted: planted.map((p) => ({
      ...p,
      at: target.get(p.id)!,
      ...(p.update ? { update: { ...p.update, firstAt: target.get(`${p.id}-first`)! } } : {}),
    })),
  };
}
