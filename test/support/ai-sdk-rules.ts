/**
 * The AI SDK's rules for the `messages` of a `generateText` call, written from its docs (ModelMessage, tool calling,
 * tool execution approval) and the errors it raises (MissingToolResultsError, a tool result without its call that
 * providers reject), independently of the adapter: applied to what a fold leaves.
 */
type Message = { role?: unknown; content?: unknown; providerOptions?: unknown };
type Part = Record<string, unknown>;

const partsOf = (m: Message): Part[] => (Array.isArray(m.content) ? (m.content as Part[]) : []);
const ofType = (m: Message, type: string) => partsOf(m).filter((p) => p.type === type);
const untouchable = (m: Message) =>
  m.providerOptions !== undefined || partsOf(m).some((p) => p.type === 'reasoning' || p.providerOptions !== undefined);

/**
 * @param input the conversation before the fold.
 * @param output the folded context.
 * @returns every broken rule, empty when the SDK and its providers would accept the messages.
 */
export function aiSdkRuleViolations(input: readonly unknown[], output: readonly unknown[]): string[] {
  const problems: string[] = [];
  const msgs = output as Message[];
  const firstOther = msgs.findIndex((m) => m.role !== 'system');
  if (firstOther >= 0) {
    if (msgs.slice(firstOther).some((m) => m.role === 'system'))
      problems.push('a system message after the conversation started');
    if (msgs[firstOther]!.role !== 'user')
      problems.push(`the first message is a '${String(msgs[firstOther]!.role)}' message, not a user message`);
  }
  // Open calls and approvals of the current step: they must be answered before the next user or assistant message.
  let openCalls = new Set<string>();
  let openApprovals = new Set<string>();
  const called = new Set<string>();
  const requested = new Set<string>();
  msgs.forEach((m, i) => {
    if (!['system', 'user', 'assistant', 'tool'].includes(m.role as string))
      problems.push(`message ${i}: role ${String(m.role)}`);
    if (m.role === 'user' || m.role === 'assistant') {
      if (openCalls.size > 0 || openApprovals.size > 0) {
        problems.push(
          `message ${i}: ${m.role} message while ${[...openCalls, ...openApprovals].join(', ')} have no result`
        );
      }
      openCalls = new Set();
      openApprovals = new Set();
    }
    if (m.role === 'assistant') {
      const own = new Set(ofType(m, 'tool-result').map((p) => p.toolCallId as string));
      for (const c of ofType(m, 'tool-call')) {
        called.add(c.toolCallId as string);
        if (!own.has(c.toolCallId as string)) openCalls.add(c.toolCallId as string);
      }
      for (const r of ofType(m, 'tool-approval-request')) {
        requested.add(r.approvalId as string);
        openApprovals.add(r.approvalId as string);
      }
    }
    if (m.role === 'tool') {
      for (const r of ofType(m, 'tool-result')) {
        if (!called.has(r.toolCallId as string))
          problems.push(`message ${i}: tool result ${String(r.toolCallId)} without its tool call`);
        openCalls.delete(r.toolCallId as string);
      }
      for (const r of ofType(m, 'tool-approval-response')) {
        if (!requested.has(r.approvalId as string))
          problems.push(`message ${i}: approval response ${String(r.approvalId)} without its request`);
        openApprovals.delete(r.approvalId as string);
      }
    }
  });
  // What is still open must be the conversation's own pending work, kept at the end.
  const lastIn = input[input.length - 1];
  if (
    (openCalls.size > 0 || openApprovals.size > 0) &&
    JSON.stringify(output[output.length - 1]) !== JSON.stringify(lastIn)
  ) {
    problems.push(`calls ${[...openCalls, ...openApprovals].join(', ')} are left without results`);
  }
  // Signed reasoning and provider options: byte for byte as given.
  const given = new Set(input.map((m) => JSON.stringify(m)));
  msgs.forEach((m, i) => {
    if (untouchable(m) && !given.has(JSON.stringify(m)))
      problems.push(`message ${i}: reasoning or providerOptions changed`);
  });
  return problems;
}
