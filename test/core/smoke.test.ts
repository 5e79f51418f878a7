import { strict as assert } from 'node:assert';
import { SUMMARY_MARKER } from '../../src/core/messages/summary-marker';

describe('smoke', () => {
  it('loads TypeScript through tsx', () => {
    assert.ok(SUMMARY_MARKER.startsWith('['));
  });
});
