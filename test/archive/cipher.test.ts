import { strict as assert } from 'node:assert';
import { ArchiveDecryptError } from '../../src/archive/cipher';
import { testCipher } from '../support/archive-keys';

describe('archive cipher', () => {
  const identity = ['conversation-x', 'message', 3, 0] as const;

  it('seals with a fresh IV each time and opens only for the same row and key', () => {
    const cipher = testCipher('k1', 'k2');
    const a = cipher.seal(identity, '{"content":"hello"}');
    const b = cipher.seal(identity, '{"content":"hello"}');
    assert.notEqual(a, b, 'a random IV: equal texts do not show as equal bodies');
    assert.equal(cipher.open(identity, 'k1', a), '{"content":"hello"}');
    const refused: [readonly (string | number)[], string, string][] = [
      [['conversation-x', 'message', 4, 0], 'k1', a],
      [['conversation-x', 'message', 3, 1], 'k1', a],
      [['conversation-x', 'fold', 3, 0], 'k1', a],
      [['conversation-y', 'message', 3, 0], 'k1', a],
      [identity, 'k2', a],
      [identity, 'k1', a.slice(0, 20)],
      [identity, 'k1', `${a.slice(0, -4)}AAA=`],
    ];
    for (const [where, keyId, body] of refused)
      assert.throws(() => cipher.open(where, keyId, body), ArchiveDecryptError, JSON.stringify(where));
    assert.throws(
      () => testCipher('k2').open(identity, 'k1', a),
      /message 3 revision 0 of "conversation-x" is encrypted with key 'k1', which is not configured \(keys: k2\)/
    );
  });

  it('blinds words to tokens of letters, the same per conversation, key and word, different otherwise', () => {
    const cipher = testCipher('k1', 'k2');
    const tokens = cipher.blind('conversation-x', 'tck 4821 tck');
    assert.match(tokens, /^[a-p]{16} [a-p]{16} [a-p]{16}$/);
    const [t1, t2, t3] = tokens.split(' ');
    assert.equal(t1, t3);
    assert.notEqual(t1, t2);
    assert.equal(cipher.blind('conversation-x', '4821'), t2, 'a query term blinds to the stored token');
    assert.notEqual(cipher.blind('conversation-x', 'tck', 'k2'), t1, 'another key');
    assert.notEqual(cipher.blind('conversation-y', 'tck'), t1, 'another conversation');
    assert.equal(cipher.blind('conversation-x', ''), '');
  });

  it('hashes content with a key and its place: the same for both, different for another key or place', () => {
    const cipher = testCipher('k1', 'k2');
    const content = 'ab'.repeat(32);
    const place = ['conversation-x', 'message', 3];
    assert.match(cipher.hash(place, content), /^[0-9a-f]{64}$/);
    assert.notEqual(cipher.hash(place, content), content);
    assert.equal(cipher.hash(place, content), cipher.hash(place, content, 'k1'));
    assert.notEqual(cipher.hash(place, content, 'k2'), cipher.hash(place, content, 'k1'));
    assert.notEqual(cipher.hash(['conversation-x', 'message', 4], content), cipher.hash(place, content));
  });
});
