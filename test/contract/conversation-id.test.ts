import { strict as assert } from 'node:assert';
import { WRITER_ID_PATTERN, writerIdProblem } from '../../src/contract/conversation-id';

describe('writer ids: one rule for the client and the workflow', () => {
  it('accepts 1-128 ASCII letters, digits and . _ : @ -', () => {
    for (const id of ['w', 'agent-1', 'a.b_c:d@e-f', 'x'.repeat(128), '94885d60-8b1f-4121-b90b-dc47d7b4e952']) {
      assert.equal(writerIdProblem(id, 'writer'), undefined, id);
      assert.ok(WRITER_ID_PATTERN.test(id));
    }
  });

  it('refuses anything else, naming the field as the caller calls it', () => {
    for (const id of ['', 'x'.repeat(129), 'a/b', 'a b', 'é', 7, null]) {
      assert.match(
        writerIdProblem(id, 'writerId') ?? '',
        /^writerId must be 1-128 characters of letters, digits and \. _ : @ -, got /,
        String(id)
      );
    }
    assert.match(writerIdProblem('a/b', 'writer') ?? '', /^writer must be .*, got "a\/b"$/);
  });
});
