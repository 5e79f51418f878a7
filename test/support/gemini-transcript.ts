/**
 * A realistic Gemini agent session in the shape of the `generateContent` REST API (contents as the docs show them:
 * function calling with ids and parallel calls, thinking with thought signatures, code execution, inline and file
 * data), with the system instruction as the conversation's leading `system` element.
 */
export const SIGNATURE_A = 'CiQBcsjafH3nZzQ1YmRhM2U0LTU2YTgtNDhkMi05Y2UwLTExYTU1ZTNiNzlmZRI=';
export const SIGNATURE_B = 'Ei8KLQFyyNp8b2Z0d2FyZS1zaWduYXR1cmUtYmxvY2stdGhhdC1tdXN0LXN0YXktZXhhY3Q=';
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export function geminiSession(): unknown[] {
  return [
    { role: 'system', parts: [{ text: 'You are a release engineer. Use the tools; never guess versions.' }] },
    {
      role: 'user',
      parts: [
        { text: 'Which services still pin libssl 1.1? Here is the dashboard.' },
        { inlineData: { mimeType: 'image/png', data: PNG_1X1 } },
      ],
    },
    {
      role: 'model',
      parts: [
        { text: 'I should search the manifests first.', thought: true },
        {
          functionCall: { id: 'call-1', name: 'search_manifests', args: { query: 'libssl1.1' } },
          thoughtSignature: SIGNATURE_A,
        },
        { functionCall: { id: 'call-2', name: 'list_services', args: {} } },
      ],
    },
    {
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'call-1',
            name: 'search_manifests',
            response: { hits: ['billing/Dockerfile', 'auth/Dockerfile'] },
          },
        },
        {
          functionResponse: { id: 'call-2', name: 'list_services', response: { services: ['billing', 'auth', 'web'] } },
        },
      ],
    },
    { role: 'model', parts: [{ text: 'billing and auth pin libssl 1.1; web does not.' }] },
    {
      role: 'user',
      parts: [
        { text: 'Count the lines in the billing Dockerfile with code.' },
        {
          fileData: {
            mimeType: 'text/plain',
            fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc123',
          },
        },
      ],
    },
    {
      role: 'model',
      parts: [
        { executableCode: { language: 'PYTHON', code: 'print(len(open("Dockerfile").read().splitlines()))' } },
        { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '42\n' } },
        { text: 'The billing Dockerfile has 42 lines.' },
      ],
    },
    { role: 'user', parts: [{ text: 'Check the auth image tag too.' }] },
    // Calls without ids pair by name and order.
    {
      role: 'model',
      parts: [
        { functionCall: { name: 'read_file', args: { path: 'auth/Dockerfile' } }, thoughtSignature: SIGNATURE_B },
        { functionCall: { name: 'read_file', args: { path: 'auth/VERSION' } } },
      ],
    },
    {
      role: 'user',
      parts: [
        {
          functionResponse: {
            name: 'read_file',
            response: { content: 'FROM debian:bullseye\nRUN apt-get install libssl1.1' },
          },
        },
        { functionResponse: { name: 'read_file', response: { content: '2.4.1' } } },
      ],
    },
    { role: 'model', parts: [{ text: 'auth 2.4.1 is built on bullseye with libssl 1.1.' }] },
    { role: 'user', parts: [{ text: 'Open a ticket for both.' }] },
    {
      role: 'model',
      parts: [{ functionCall: { id: 'call-9', name: 'open_ticket', args: { services: ['billing', 'auth'] } } }],
    },
  ];
}
