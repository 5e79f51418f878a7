/**
 * An independent checker of what the Anthropic Messages API accepts, written from its documentation (Messages API
 * reference, tool-use and extended-thinking guides), not from the adapter: it shares no code with `src/`.
 *
 * - The system prompt is the `system` parameter, not a message: `{role: 'system'}` elements must all come first (they
 *   are what the client moves into `system`), and are then removed.
 * - "Consecutive user or assistant turns in your request will be combined into a single turn": turns are merged
 *   before the other rules are checked. Two adjacent assistant turns are refused all the same: merging them moves
 *   one turn's thinking blocks into the middle of another, which a compactor must never cause.
 * - The first turn is a user turn.
 * - Each `tool_result` block answers a `tool_use` block of the assistant turn just before its user turn, once, and the
 *   tool_result blocks come before every other block of that user turn.
 * - Each `tool_use` block of an assistant turn is answered in the next user turn; only the last assistant turn may
 *   leave calls unanswered (the agent is running them).
 * - A `server_tool_use` / `mcp_tool_use` and its result block stay inside one assistant turn.
 * - Thinking and redacted_thinking blocks reach the API exactly as the model returned them: every assistant turn that
 *   holds one is, byte for byte, one of the original assistant turns.
 */
type Msg = { role: string; content: unknown };
type Block = Record<string, unknown>;

const blocksOf = (m: Msg): Block[] =>
  typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Block[]);

/**
 * @param context the messages a folded context would send (system element(s) first, if any).
 * @param originals the conversation's original messages, to check signed assistant turns against.
 * @returns what the API would reject, empty when it accepts the request.
 */
export function anthropicProblems(context: readonly unknown[], originals: readonly unknown[]): string[] {
  const problems: string[] = [];
  const msgs = context as Msg[];
  let k = 0;
  while (k < msgs.length && msgs[k]!.role === 'system') k++;
  const body = msgs.slice(k);
  body.forEach((m, i) => {
    if (m.role === 'system') problems.push(`message ${i + k}: a system element after the first turn`);
    else if (m.role !== 'user' && m.role !== 'assistant') problems.push(`message ${i + k}: role ${m.role}`);
  });
  const signed = new Set(
    (originals as Msg[])
      .filter((m) => m.role === 'assistant' && blocksOf(m).some(isSigned))
      .map((m) => JSON.stringify(m))
  );
  body.forEach((m, i) => {
    if (m.role === 'assistant' && blocksOf(m).some(isSigned) && !signed.has(JSON.stringify(m))) {
      problems.push(`message ${i + k}: an assistant turn with thinking blocks that is not one of the originals`);
    }
  });
  const turns: { role: string; blocks: Block[]; from: number }[] = [];
  body.forEach((m, i) => {
    const last = turns[turns.length - 1];
    if (last && last.role === m.role) {
      if (m.role === 'assistant') problems.push(`message ${i + k}: two adjacent assistant turns`);
      last.blocks.push(...blocksOf(m));
    } else turns.push({ role: m.role, blocks: [...blocksOf(m)], from: i + k });
  });
  if (turns.length === 0) return [...problems, 'no message'];
  if (turns[0]!.role !== 'user') problems.push(`the first turn (message ${turns[0]!.from}) is not a user turn`);
  turns.forEach((turn, t) => {
    const prev = turns[t - 1];
    const calls = prev?.role === 'assistant' ? prev.blocks.filter((b) => b.type === 'tool_use').map((b) => b.id) : [];
    if (turn.role === 'user') {
      const answered = new Set<unknown>();
      let other = false;
      for (const b of turn.blocks) {
        if (b.type !== 'tool_result') {
          other = true;
          continue;
        }
        if (other) problems.push(`turn at message ${turn.from}: a tool_result after another block`);
        if (!calls.includes(b.tool_use_id)) {
          problems.push(
            `turn at message ${turn.from}: tool_result ${String(b.tool_use_id)} answers no tool_use of the turn before`
          );
        }
        if (answered.has(b.tool_use_id))
          problems.push(`turn at message ${turn.from}: ${String(b.tool_use_id)} answered twice`);
        answered.add(b.tool_use_id);
      }
      for (const id of calls) {
        if (!answered.has(id))
          problems.push(`tool_use ${String(id)} of the turn before message ${turn.from} is not answered`);
      }
    } else {
      const inTurn = new Set(
        turn.blocks.filter((b) => b.type === 'server_tool_use' || b.type === 'mcp_tool_use').map((b) => b.id)
      );
      for (const b of turn.blocks) {
        const isResult = b.type === 'mcp_tool_result' || (typeof b.type === 'string' && /_tool_result$/.test(b.type));
        if (isResult && !inTurn.has(b.tool_use_id)) {
          problems.push(
            `turn at message ${turn.from}: ${String(b.type)} ${String(b.tool_use_id)} without its call in the turn`
          );
        }
      }
    }
  });
  return problems;
}

function isSigned(b: Block): boolean {
  return b.type === 'thinking' || b.type === 'redacted_thinking';
}
