/**
 * A realistic AI SDK agent session as `generateText` / `streamText` leave it in `response.messages` (`ai` v6
 * `ModelMessage`s): reasoning with provider signatures, parallel tool calls answered in one tool message, a
 * provider-executed call answered inside the assistant message, a tool approval (request, response, then the result),
 * images and files, and `providerOptions` on messages and parts.
 */
export function aiSdkSession(): unknown[] {
  return [
    { role: 'system', content: 'You are a support agent for ACME. Refunds over $100 need approval.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'My order 5000 arrived broken, photo attached.' },
        { type: 'image', image: 'https://example.com/photo-5000.jpg', mediaType: 'image/jpeg' },
      ],
      providerOptions: { openai: { user: 'u-17' } },
    },
    {
      role: 'assistant',
      content: [
        {
          type: 'reasoning',
          text: 'Look up the order and the refund policy.',
          providerOptions: { anthropic: { signature: 'EqQBCkYIBhgCKkBsig==' } },
        },
        { type: 'tool-call', toolCallId: 'tc-1', toolName: 'getOrder', input: { id: 5000 } },
        { type: 'tool-call', toolCallId: 'tc-2', toolName: 'getPolicy', input: { topic: 'refunds' } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'tc-1',
          toolName: 'getOrder',
          output: { type: 'json', value: { id: 5000, total: 249, status: 'delivered' } },
        },
        {
          type: 'tool-result',
          toolCallId: 'tc-2',
          toolName: 'getPolicy',
          output: { type: 'text', value: 'Broken items: full refund.' },
        },
      ],
    },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'ws-1',
          toolName: 'web_search',
          input: { query: 'ACME courier damage claims' },
          providerExecuted: true,
        },
        {
          type: 'tool-result',
          toolCallId: 'ws-1',
          toolName: 'web_search',
          output: { type: 'json', value: [{ url: 'https://acme.example/claims' }] },
        },
        {
          type: 'text',
          text: 'The order qualifies for a full refund of $249.',
          providerOptions: { openai: { itemId: 'msg_0a1' } },
        },
      ],
    },
    { role: 'user', content: 'Please refund it to my card.' },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'tc-3', toolName: 'refund', input: { order: 5000, amount: 249 } },
        { type: 'tool-approval-request', approvalId: 'ap-1', toolCallId: 'tc-3' },
      ],
    },
    {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: 'ap-1', approved: true, reason: 'supervisor ok' }],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'tc-3',
          toolName: 'refund',
          output: { type: 'content', value: [{ type: 'text', text: 'refund R-77 issued' }] },
        },
      ],
    },
    { role: 'assistant', content: 'Refund R-77 for $249 is on its way.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Here is the receipt for my records, and please close the ticket.' },
        { type: 'file', data: 'JVBERi0xLjQK', mediaType: 'application/pdf', filename: 'receipt.pdf' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'tc-4', toolName: 'closeTicket', input: { order: 5000 } },
        { type: 'tool-approval-request', approvalId: 'ap-2', toolCallId: 'tc-4' },
      ],
    },
  ];
}
