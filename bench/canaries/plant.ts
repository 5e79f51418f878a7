/** Planting drawn canaries into a real chat session at early / middle / late positions of its folded prefix. */
import type { Canary, CanaryPosition, CanaryType } from './generator';
import { CANARY_POSITIONS, CANARY_TYPES, drawCanary, rng } from './generator';

type Message = Record<string, unknown>;

/** A canary and the indices, in the planted session, of the message carrying it (and its original). */
export interface Planted {
  canary: Canary;
  at: number;
  originalAt?: number;
}

/** A session with canaries in it. */
export interface PlantedSession {
  messages: Message[];
  canaries: Planted[];
}

const SPAN: Record<CanaryPosition, [number, number]> = { early: [0.05, 0.25], middle: [0.4, 0.6], late: [0.7, 0.9] };

const reminder = (text: string): string => `\n<system-reminder>\n${text}\n</system-reminder>`;

/**
 * Plants one canary of every type into the first `prefix` messages of `messages`. The position of type `t` under seed
 * `s` is position `(t + s) mod 3`, so any three consecutive seeds put every type once at every position; `dense`
 * plants every type at every position instead (21 canaries, a crowded session).
 *
 * @param prefix how many messages of the session the run will reach (positions are fractions of it)
 * @returns the new session (the caller's messages are not changed) and where each canary went
 */
export function plantCanaries(
  messages: readonly Message[],
  prefix: number,
  seed: number,
  dense = false
): PlantedSession {
  const r = rng(seed);
  const firstUser = messages.findIndex((m) => m.role === 'user');
  // A user message may go before any user or assistant message after the task (never between a call and its result).
  const userSlots = messages
    .map((m, i) => i)
    .filter((i) => i > firstUser && (messages[i]!.role === 'user' || messages[i]!.role === 'assistant'));
  const toolSlots = messages
    .map((m, i) => i)
    .filter((i) => messages[i]!.role === 'tool' && typeof messages[i]!.content === 'string');
  const nearest = (slots: number[], target: number): number | undefined =>
    slots.length === 0 ? undefined : slots.reduce((b, s) => (Math.abs(s - target) < Math.abs(b - target) ? s : b));
  const before = new Map<number, Canary[]>();
  const appended = new Map<number, Canary[]>();
  const used = new Set<string>();
  const push = (map: Map<number, Canary[]>, at: number, c: Canary): void => {
    map.set(at, [...(map.get(at) ?? []), c]);
  };
  const originals = new Map<Canary, Canary>();
  let n = 0;
  const plan = CANARY_TYPES.flatMap((type, t) =>
    dense
      ? CANARY_POSITIONS.map((position) => ({ type, position }))
      : [{ type, position: CANARY_POSITIONS[(t + seed) % 3]! }]
  );
  {
    for (const { type, position } of plan as { type: CanaryType; position: CanaryPosition }[]) {
      const c = drawCanary(r, type, position, `c${n++}`, used);
      const [lo, hi] = SPAN[position];
      const target = Math.floor(prefix * (lo + r() * (hi - lo)));
      const toTool = c.carrier === 'reminder' ? nearest(toolSlots, target) : undefined;
      if (toTool !== undefined) push(appended, toTool, c);
      else push(before, nearest(userSlots, target) ?? messages.length, { ...c, carrier: 'user' });
      if (c.original) {
        const at = nearest(userSlots, Math.floor(target * (0.1 + 0.5 * r()))) ?? 0;
        const orig: Canary = { ...c, id: `${c.id}-original`, text: c.original.text };
        originals.set(orig, c);
        // Into the same slot as its update, it goes first.
        const slot = Math.min(at, nearest(userSlots, target) ?? at);
        before.set(slot, [orig, ...(before.get(slot) ?? [])]);
      }
    }
  }
  const out: Message[] = [];
  const where = new Map<string, number>();
  messages.forEach((m, i) => {
    for (const c of before.get(i) ?? []) {
      where.set(c.id, out.length);
      out.push({ role: 'user', content: c.text });
    }
    const extra = appended.get(i);
    if (extra) {
      for (const c of extra) where.set(c.id, out.length);
      out.push({ ...m, content: `${String(m.content)}${extra.map((c) => reminder(c.text)).join('')}` });
    } else out.push(m);
  });
  for (const c of before.get(messages.length) ?? []) {
    where.set(c.id, out.length);
    out.push({ role: 'user', content: c.text });
  }
  const canaries: Planted[] = [];
  for (const list of [...before.values(), ...appended.values()]) {
    for (const c of list) {
      if (originals.has(c)) continue;
      const orig = [...originals.entries()].find(([, v]) => v.id === c.id)?.[0];
      canaries.push({
        canary: c,
        at: where.get(c.id)!,
        ...(orig ? { originalAt: where.get(orig.id)! } : {}),
      });
    }
  }
  canaries.sort((a, b) => a.at - b.at);
  return { messages: out, canaries };
}
