import { strict as assert } from 'node:assert';
import { evictStaleToolResults } from '../../../src/core/fold/evict';
import { emptyHotPaths, noteTurn, readsIn } from '../../../src/core/fold/hot-paths';
import { isOffloaded, pointerFor } from '../../../src/core/fold/pointer';
import { normalize } from '../../../src/core/messages/normalize';
import { corpusConversations } from '../../support/corpus';

/** The pointer kind each corpus tool must get: reads, searches and shells are recognised, not lumped as "tool". */
const EXPECTED_KIND: Record<string, string> = {
  Read: 'file',
  Grep: 'search',
  Glob: 'search',
  Bash: 'shell',
  bash: 'shell',
  execute_bash: 'shell',
  WebFetch: 'fetch',
};

describe('core/fold/evict on the corpus conversations', () => {
  for (const conv of corpusConversations()) {
    describe(conv.name, () => {
      const transcript = normalize(conv.messages, 'chat');
      const { raws, offloaded } = evictStaleToolResults(transcript, { budget: 32_000 });

      it('keeps every element in place, changing only offloaded tool outputs', () => {
        assert.equal(raws.length, conv.messages.length);
        const changed = new Set(offloaded.map((o) => o.index));
        raws.forEach((r, i) => {
          if (!changed.has(i)) return assert.equal(r, conv.messages[i], `element ${i} untouched`);
          const m = conv.messages[i]!;
          assert.equal(m.role, 'tool');
          const { content, ...rest } = r as Record<string, unknown>;
          assert.deepEqual(rest, Object.fromEntries(Object.entries(m).filter(([k]) => k !== 'content')));
          assert.ok(typeof content === 'string' && isOffloaded(content));
        });
      });

      it('keeps the newest 8 large results verbatim and pairs every result with its call still', () => {
        const after = normalize(raws, 'chat');
        after.items.forEach((item, i) => assert.deepEqual(item.answers, transcript.items[i]!.answers));
        const results = transcript.items.filter((it) => it.role === 'tool');
        const lastOffloaded = offloaded.filter((o) => o.reason === 'stale').at(-1)?.index ?? -1;
        const liveAfter = after.items.filter(
          (it) => it.role === 'tool' && it.index > lastOffloaded && !isOffloaded(it.text)
        );
        if (offloaded.some((o) => o.reason === 'stale'))
          assert.ok(liveAfter.length >= 8, `${liveAfter.length} live after`);
        assert.ok(offloaded.length <= results.length);
      });

      it('is idempotent and shrinks the text', () => {
        assert.deepEqual(evictStaleToolResults(normalize(raws, 'chat'), { budget: 32_000 }).offloaded, []);
        const size = (xs: unknown[]) => JSON.stringify(xs).length;
        if (offloaded.length > 0) assert.ok(size(raws) < size(conv.messages));
      });

      it('gives each recognised tool its typed pointer', () => {
        for (const item of transcript.items) {
          for (const call of item.calls) {
            const kind = EXPECTED_KIND[call.name];
            if (kind) assert.equal(pointerFor(call).kind, kind, `${call.name} ${call.arguments.slice(0, 80)}`);
            if (call.name === 'str_replace_editor') {
              const view = (JSON.parse(call.arguments) as { command?: string }).command === 'view';
              assert.equal(pointerFor(call).kind, view ? 'file' : 'tool');
            }
          }
        }
      });
    });
  }

  it('offloads at least one read, search and shell output somewhere in the corpus', () => {
    const kinds = new Set<string>();
    for (const conv of corpusConversations()) {
      for (const o of evictStaleToolResults(normalize(conv.messages, 'chat'), { keepRecent: 8 }).offloaded) {
        kinds.add(o.pointer.kind);
      }
    }
    for (const k of ['file', 'search', 'shell', 'tool']) assert.ok(kinds.has(k), `no ${k} pointer`);
  });

  it('finds re-read files in the Claude Code sessions and keeps a hot one past the window', () => {
    const conv = corpusConversations().find((c) => c.name === 'claude-code-spotter-ae4a77f8')!;
    const t = normalize(conv.messages, 'chat');
    const hot = noteTurn(emptyHotPaths(), readsIn(t));
    assert.ok(hot.scores.length > 0, 'some file is read at least twice');
    const withHot = evictStaleToolResults(t, { keepRecent: 8, hotPaths: hot });
    const without = evictStaleToolResults(t, { keepRecent: 8 });
    assert.ok(withHot.offloaded.length < without.offloaded.length);
    const spared = without.offloaded.filter((o) => !withHot.offloaded.some((w) => w.index === o.index));
    for (const o of spared) {
      const p = o.pointer;
      assert.ok(p.kind === 'file' && hot.scores.some((s) => s.path === p.path));
    }
  });
});
