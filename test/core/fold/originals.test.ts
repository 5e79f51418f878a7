import { strict as assert } from 'node:assert';
import { archiveWhere, lightenMessage } from '../../../src/core/fold/lighten';
import { isLightenedFrom, lightenedSeqs } from '../../../src/core/fold/originals';

const image = {
  role: 'user',
  content: [
    { type: 'text', text: 'what is in this picture?' },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(200_000)}` } },
  ],
};
const longTool = { role: 'tool', tool_call_id: 'call_1', content: 'x'.repeat(50_000) };

describe('reading back lightened messages (core/fold/originals.ts)', () => {
  it('finds the sequence number a lightened image or clipped string names, for its own conversation only', () => {
    const lightImage = lightenMessage(image, archiveWhere('conv-a', 17));
    assert.deepEqual(lightenedSeqs(lightImage, 'conv-a'), [17]);
    assert.deepEqual(lightenedSeqs(lightImage, 'conv-b'), [], "another conversation's note is not read");
    const lightTool = lightenMessage(longTool, archiveWhere('conv-a', 3));
    assert.deepEqual(lightenedSeqs(lightTool, 'conv-a'), [3]);
    // A lightened message whose text also quotes another note names both.
    const quotingToo = lightenMessage(
      { ...longTool, name: `the full message is ${archiveWhere('conv-a', 1)}` },
      archiveWhere('conv-a', 3)
    );
    assert.deepEqual(lightenedSeqs(quotingToo, 'conv-a'), [3, 1]);
    assert.deepEqual(lightenedSeqs(image, 'conv-a'), [], 'a message that was not lightened names nothing');
  });

  it('accepts an original only when lightening it again gives exactly the live message', () => {
    const where = archiveWhere('conv-a', 17);
    const live = lightenMessage(image, where);
    assert.ok(isLightenedFrom(live, image, 'conv-a', 17));
    // Key order does not matter (the archive and the workflow may order keys differently).
    const reordered = { content: image.content, role: image.role };
    assert.ok(isLightenedFrom(live, reordered, 'conv-a', 17));
    // Another original, another number, or a user quoting the note are not taken for it.
    assert.ok(!isLightenedFrom(live, { ...image, role: 'assistant' }, 'conv-a', 17));
    assert.ok(!isLightenedFrom(live, image, 'conv-a', 18));
    const quoting = {
      role: 'user',
      content: `[image_url left out to keep the context small; the original is ${where}]`,
    };
    assert.deepEqual(lightenedSeqs(quoting, 'conv-a'), [17]);
    assert.ok(!isLightenedFrom(quoting, image, 'conv-a', 17));
  });
});
