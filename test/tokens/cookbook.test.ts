import { strict as assert } from 'node:assert';
import { createTokenCounter } from '../../src/tokens';

// The example conversation of the OpenAI cookbook notebook "How to count tokens with tiktoken", §6, whose prompt
// tokens the notebook checks against the API: 124 on gpt-4o / gpt-4o-mini and 129 on gpt-4 / gpt-3.5-turbo.
const example = [
  {
    role: 'system',
    content: 'You are a helpful, pattern-following assistant that translates corporate jargon into plain English.',
  },
  { role: 'system', name: 'example_user', content: 'New synergies will help drive top-line growth.' },
  { role: 'system', name: 'example_assistant', content: 'Things working well together will increase revenue.' },
  {
    role: 'system',
    name: 'example_user',
    content: "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage.",
  },
  {
    role: 'system',
    name: 'example_assistant',
    content: "Let's talk later when we're less busy about how to do better.",
  },
  {
    role: 'user',
    content: "This late pivot means we don't have time to boil the ocean for the client deliverable.",
  },
];

// §7: one tool schema and a two-message chat, checked against the API at 101 (gpt-4o) and 105 (gpt-4).
const tools = [
  {
    type: 'function',
    function: {
      name: 'get_current_weather',
      description: 'Get the current weather in a given location',
      parameters: {
        type: 'object',
        properties: {
          location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
          unit: { type: 'string', description: 'The unit of temperature to return', enum: ['celsius', 'fahrenheit'] },
        },
        required: ['location'],
      },
    },
  },
];
const weatherChat = [
  { role: 'system', content: 'You are a helpful assistant that can answer to questions about the weather.' },
  { role: 'user', content: "What's the weather like in San Francisco?" },
];

function promptTokens(model: string, messages: unknown[], withTools: unknown[] = []): number {
  const counter = createTokenCounter({ model });
  const sum = counter.countMessages(messages, 'chat').reduce((a, b) => a + b, 0);
  return sum + counter.replyPriming + counter.countTools(withTools);
}

describe('cookbook example conversation', () => {
  it('gives the API count of 124 on gpt-4o and gpt-4o-mini', () => {
    assert.equal(promptTokens('gpt-4o', example), 124);
    assert.equal(promptTokens('gpt-4o-mini', example), 124);
  });

  it('gives the API count of 129 on gpt-4 and gpt-3.5-turbo', () => {
    assert.equal(promptTokens('gpt-4', example), 129);
    assert.equal(promptTokens('gpt-3.5-turbo', example), 129);
  });

  it('prices a name at its tokens + 1 (encodeChat would drop the role instead)', () => {
    const counter = createTokenCounter({ model: 'gpt-4o' });
    const named = counter.countMessage(example[1], 'chat');
    const unnamed = counter.countMessage({ role: 'system', content: example[1]!.content }, 'chat');
    assert.equal(named - unnamed, counter.countText('example_user') + 1);
  });

  it('prices the §7 tool example at 101 on gpt-4o and 105 on gpt-4', () => {
    assert.equal(promptTokens('gpt-4o', weatherChat, tools), 101);
    assert.equal(promptTokens('gpt-4', weatherChat, tools), 105);
  });

  it('prices Responses-style tool schemas like Chat ones', () => {
    const counter = createTokenCounter({ model: 'gpt-4o' });
    const flat = tools.map((t) => ({ type: 'function', ...t.function }));
    assert.equal(counter.countTools(flat), counter.countTools(tools));
    assert.equal(counter.countTools([]), 0);
  });
});
