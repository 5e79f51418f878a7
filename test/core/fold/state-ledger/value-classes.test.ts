import assert from 'node:assert/strict';
import { supersedes } from '../../../../src/core/fold/state-ledger';
import type { LedgerEntry } from '../../../../src/core/fold/state-ledger';
import { typedScan } from '../../../../src/core/fold/state-ledger/typed-values';
import { isClass, isOwnSetting } from '../../../../src/core/fold/state-ledger/value-classes';

const entry = (kind: LedgerEntry['kind'], text: string, seq: number): LedgerEntry => ({ kind, text, seq });
const classes = (text: string): string[] =>
  typedScan(text)
    .values.filter((v) => isClass(v.type))
    .map((v) => `${v.type}=${v.value}`);

describe('core/fold/state-ledger/value-classes', () => {
  describe('typedScan, on the closed classes', () => {
    it('finds a class value said as a mode, after a preposition or "use"', () => {
      assert.deepEqual(classes('Please answer in French.'), ['class:language=french']);
      assert.deepEqual(classes('Send the export as Parquet via Slack.'), [
        'class:format=parquet',
        'class:channel=slack',
      ]);
      assert.deepEqual(classes('use yarn, and indent with 2 spaces'), [
        'class:indent=2 space',
        'class:package-manager=yarn',
      ]);
    });

    it('leaves a class word that modifies a noun, and a name with a version', () => {
      assert.deepEqual(classes('The Slack bot reads the JSON keys at 09:00 UTC.'), []);
      assert.deepEqual(classes('The jobs run with Java 17 and in Python 3.12.'), []);
    });

    it('blanks the values it found from the rest of the text', () => {
      assert.equal(typedScan('write it in Rust').rest, 'write it in     ');
    });
  });

  it('treats the language, register, time zone, indentation and tools of the work as settings of their own', () => {
    assert.ok(isOwnSetting('class:language'));
    assert.ok(isOwnSetting('class:package-manager'));
    assert.ok(!isOwnSetting('class:format'), 'a format is the format of something');
    assert.ok(!isOwnSetting('class:country'));
  });

  describe('supersedes, on a class', () => {
    it('replaces a setting switched to another value of its class, whatever else the two say', () => {
      const language = entry('preference', 'Answer me in Spanish please.', 1);
      assert.ok(supersedes(entry('said', 'From now on reply in Dutch, the new manager reads these.', 2), language));
      const manager = entry('said', 'Install things with pip for this project.', 1);
      assert.ok(supersedes(entry('said', 'We moved to poetry last week, so use poetry instead.', 2), manager));
    });

    it('keeps a setting when the newer one does not switch it, or another class names something else', () => {
      const language = entry('preference', 'Answer me in Spanish please.', 1);
      assert.ok(
        !supersedes(entry('said', 'The new manager writes in Dutch.', 2), language),
        'no wording that switches'
      );
      const report = entry('preference', 'I want the quarterly report as a PDF.', 1);
      assert.ok(
        !supersedes(entry('said', 'Going forward, store the raw events as Avro.', 2), report),
        'a format of another thing'
      );
    });
  });
});
