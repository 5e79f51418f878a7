import assert from 'node:assert/strict';
import { MAX_RETRY_AFTER_MS, classifyError, redact, retryAfterMs } from '../../src/summarizers/classify-error';

describe('summarizers/classify-error', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const h = (o: Record<string, string>): Headers => new Headers(o);

  it('reads retry-after in seconds, as an HTTP date, and retry-after-ms', () => {
    assert.equal(retryAfterMs(h({ 'retry-after': '3' }), now), 3000);
    assert.equal(retryAfterMs(h({ 'retry-after': '0.5' }), now), 500);
    assert.equal(retryAfterMs(h({ 'retry-after': 'Thu, 01 Jan 2026 00:00:42 GMT' }), now), 42_000);
    assert.equal(retryAfterMs(h({ 'retry-after-ms': '250', 'retry-after': '3' }), now), 250);
  });

  it('ignores absent, past, unparsable and absurd values', () => {
    assert.equal(retryAfterMs(undefined, now), undefined);
    assert.equal(retryAfterMs(h({}), now), undefined);
    assert.equal(retryAfterMs(h({ 'retry-after': 'soon' }), now), undefined);
    assert.equal(retryAfterMs(h({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }), now), undefined);
    assert.equal(retryAfterMs(h({ 'retry-after': String(MAX_RETRY_AFTER_MS / 1000 + 1) }), now), undefined);
  });

  it('scrubs the key and key-shaped strings', () => {
    assert.equal(redact('key abc-SECRET-123 here', ['abc-SECRET-123']), 'key *** here');
    assert.equal(redact('bad key sk-proj-AbCdEf123456'), 'bad key sk-***');
  });

  it('classifies unknown errors as retryable, without the secret', () => {
    const e = classifyError(new Error('socket hang up near TOPSECRET'), ['TOPSECRET']);
    assert.equal(e.name, 'SummarizerCallError');
    assert.ok(!e.message.includes('TOPSECRET'));
  });
});
