import type { ConversationClient, Prepared } from '../../src/client/conversation-client';

/**
 * Drives a recorded conversation through a client the way an agent loop would: everything up to the next assistant
 * message goes to `prepare` (which returns the context to send), and the assistant message is then `record`ed.
 * @returns every `prepare` result, in order.
 */
export async function driveConversation(
  conv: ConversationClient,
  messages: readonly unknown[],
  onPrepared: (prepared: Prepared, step: number) => void | Promise<void> = () => {}
): Promise<Prepared[]> {
  const results: Prepared[] = [];
  let pending: unknown[] = [];
  for (const message of messages) {
    if ((message as { role?: string }).role === 'assistant') {
      const prepared = await conv.prepare(pending);
      results.push(prepared);
      await onPrepared(prepared, results.length - 1);
      pending = [];
      await conv.record([message]);
    } else {
      pending.push(message);
    }
  }
  if (pending.length > 0) {
    const prepared = await conv.prepare(pending);
    results.push(prepared);
    await onPrepared(prepared, results.length - 1);
  }
  return results;
}
