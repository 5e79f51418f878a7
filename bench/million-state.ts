/**
 * Heap a 900 000-token conversation's state holds, in-process (part of `npm run bench million`): the same messages
 * through `ConversationState` and the byte budget as the workflow runs them, once with the byte budget applied
 * (the oldest messages held by reference) and once without it (what the state held before references), measured
 * as V8 heap after a full GC with the messages dropped by the caller.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { defaultSettings, mergeSettings } from '../src/contract/settings';
import { keepUnderByteBudget } from '../src/workflows/conversation/byte-budget';
import { ConversationState } from '../src/workflows/conversation/conversation-state';
import { proseMessages } from '../test/support/prose';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapUsed(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

/** @returns heap bytes the state of a `tokens`-token conversation holds, with or without the byte budget. */
export async function stateHeap(
  tokens: number,
  budgetApplied: boolean
): Promise<{ heapBytes: number; carriedBytes: number }> {
  const settings = mergeSettings(defaultSettings, { budget: 1_000_000 });
  const before = heapUsed();
  let state: ConversationState | undefined = ConversationState.create('heap', settings);
  const message = proseMessages(3);
  for (let k = 0, counted = 0; counted < tokens; k += 50) {
    const staged = state.stage({ messages: Array.from({ length: 50 }, (_, i) => message(k + i)) });
    // ~360 tokens a message, as counted by o200k_base on this prose (the bench's Temporal part counts exactly).
    state.commitAppend(
      staged,
      staged.messages.map(() => 360),
      [],
      undefined
    );
    counted += 50 * 360;
    if (budgetApplied)
      await keepUnderByteBudget(state, state.carried.live.length - 50, (raws) => Promise.resolve(raws.map(() => 360)));
  }
  state.transcript();
  const heapBytes = heapUsed() - before;
  const carriedBytes = JSON.stringify(state.handOver()).length;
  state = undefined;
  return { heapBytes, carriedBytes };
}
