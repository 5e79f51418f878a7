import type { ConversationClient, Prepared } from '../../src/client/conversation-client';

/**
 * How the agent loop hands the model's output back: `output` (the README's loop: the assistant message goes with the
 * next `prepare`, one round trip per step) or `record` (a separate `record` update first, two round trips).
 */
export type StepMode = 'output' | 'record';

/**
 * Drives a recorded conversation through a client the way an agent loop would: everything up to the next assistant
 * message goes to `prepare` (which returns the context to send); the assistant message is handed back per `mode`.
 * @returns every `prepare` result, in order.
 */
export async function driveConversation(
  conv: ConversationClient,
  messages: readonly unknown[],
  onPrepared: (prepared: Prepared, step: number) => void | Promise<void> = () => {},
  mode: StepMode = 'record'
): Promise<Prepared[]> {
  const results: Prepared[] = [];
  let pending: unknown[] = [];
  let output: unknown[] = [];
  const prepare = async (): Promise<void> => {
    const prepared = await conv.prepare(pending, output.length > 0 ? { output } : {});
    results.push(prepared);
    await onPrepared(prepared, results.length - 1);
    pending = [];
    output = [];
  };
  for (const message of messages) {
    if ((message as { role?: string }).role === 'assistant') {
      await prepare();
      if (mode === 'record') await conv.record([message]);
      else output = [message];
    } else {
      pending.push(message);
    }
  }
  if (pending.length > 0 || output.length > 0) await prepare();
  return results;
}
