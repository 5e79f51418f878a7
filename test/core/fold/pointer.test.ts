import { strict as assert } from 'node:assert';
import { OFFLOAD_PREFIX, pointerFor, pointerText, readKey } from '../../../src/core/fold/pointer';

const call = (name: string, args: unknown) => ({
  id: 'c',
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});
const ptr = (name: string, args: unknown) => pointerFor(call(name, args));

describe('core/fold/pointer', () => {
  it('TestOffloadRefTypedAndLosslessForFiles: a file read names its path and exact range, and says re-read', () => {
    const p = ptr('read_file', { path: 'internal/x.go', start_line: 40, end_line: 80 });
    assert.deepEqual(p, { kind: 'file', tool: 'read_file', path: 'internal/x.go', range: { start: 40, end: 80 } });
    const text = pointerText(p);
    assert.ok(text.startsWith(OFFLOAD_PREFIX));
    assert.ok(text.includes('internal/x.go lines 40-80'), text);
    assert.match(text, /read those lines again/);

    const whole = ptr('read_file', { path: 'internal/x.go' });
    assert.deepEqual(whole, { kind: 'file', tool: 'read_file', path: 'internal/x.go' });
    assert.match(
      pointerText(whole),
      /internal\/x\.go \(read with read_file\)\. The file is on disk: read the file again/
    );

    // Other kinds are typed too, each saying how to get the output back.
    assert.deepEqual(ptr('ripgrep', { pattern: 'func main', path: 'cmd' }), {
      kind: 'search',
      tool: 'ripgrep',
      query: 'func main',
      path: 'cmd',
    });
    assert.match(pointerText(ptr('ripgrep', { pattern: 'func main' })), /results for "func main"\. Search again/);
    assert.deepEqual(ptr('bash', { command: 'go test ./...' }), {
      kind: 'shell',
      tool: 'bash',
      command: 'go test ./...',
    });
    assert.match(pointerText(ptr('bash', { command: 'go test ./...' })), /`go test \.\/\.\.\.`\. Run it again/);
    assert.deepEqual(ptr('frobnicate', { level: 3 }), { kind: 'tool', tool: 'frobnicate', args: 'level: 3' });
    assert.deepEqual(pointerFor(undefined), { kind: 'unknown' });
    assert.ok(pointerText(pointerFor(undefined)).startsWith(OFFLOAD_PREFIX));
  });

  describe('recognises the corpus agents’ tools by name and argument shape', () => {
    const cases: [string, string, unknown, unknown][] = [
      ['Claude Code Read', 'Read', { file_path: '/p/a.ex' }, { kind: 'file', tool: 'Read', path: '/p/a.ex' }],
      [
        'Claude Code Read with offset/limit',
        'Read',
        { file_path: '/p/a.ex', offset: 260, limit: 60 },
        { kind: 'file', tool: 'Read', path: '/p/a.ex', range: { start: 260, end: 319 } },
      ],
      [
        'Claude Code Read with a limit only',
        'Read',
        { file_path: '/p/a.ex', limit: 10 },
        { kind: 'file', tool: 'Read', path: '/p/a.ex', range: { start: 1, end: 10 } },
      ],
      [
        'Claude Code Read with an offset only',
        'Read',
        { file_path: '/p/a.ex', offset: 128 },
        { kind: 'file', tool: 'Read', path: '/p/a.ex', range: { start: 128 } },
      ],
      [
        'OpenHands view with a range',
        'str_replace_editor',
        { command: 'view', path: '/t/diff.py', view_range: [1227, 1350], security_risk: 'LOW' },
        { kind: 'file', tool: 'str_replace_editor', path: '/t/diff.py', range: { start: 1227, end: 1350 } },
      ],
      [
        'OpenHands view to the end (-1)',
        'str_replace_editor',
        { command: 'view', path: '/t/diff.py', view_range: [50, -1] },
        { kind: 'file', tool: 'str_replace_editor', path: '/t/diff.py', range: { start: 50 } },
      ],
      [
        'Claude Code Grep',
        'Grep',
        { pattern: '@show_debug', path: '/p/live.ex', output_mode: 'content' },
        { kind: 'search', tool: 'Grep', query: '@show_debug', path: '/p/live.ex' },
      ],
      [
        'Claude Code Glob',
        'Glob',
        { pattern: 'assets/**/*.css' },
        { kind: 'search', tool: 'Glob', query: 'assets/**/*.css' },
      ],
      [
        'Claude Code Bash',
        'Bash',
        { command: 'mix test', description: 'Run tests' },
        { kind: 'shell', tool: 'Bash', command: 'mix test' },
      ],
      [
        'OpenHands execute_bash',
        'execute_bash',
        { command: 'cd /t && pytest', security_risk: 'MEDIUM' },
        { kind: 'shell', tool: 'execute_bash', command: 'cd /t && pytest' },
      ],
      [
        'mini-swe-agent bash',
        'bash',
        { command: 'find . -name "*.py"' },
        { kind: 'shell', tool: 'bash', command: 'find . -name "*.py"' },
      ],
      [
        'Responses local shell argv',
        'local_shell_call',
        { type: 'exec', command: ['ls', '-la'] },
        { kind: 'shell', tool: 'local_shell_call', command: 'ls -la' },
      ],
      [
        'Claude Code WebFetch',
        'WebFetch',
        { url: 'https://hexdocs.pm/x.html', prompt: 'What is setup/0?' },
        { kind: 'fetch', tool: 'WebFetch', url: 'https://hexdocs.pm/x.html' },
      ],
    ];
    for (const [name, tool, args, expected] of cases) {
      it(name, () => assert.deepEqual(ptr(tool, args), expected));
    }

    it('treats editing commands, lookups and trackers as other tools, not reads, searches or shells', () => {
      for (const [tool, args] of [
        ['str_replace_editor', { command: 'str_replace', path: '/t/a.py', old_str: 'a', new_str: 'b' }],
        ['Edit', { file_path: '/p/a.ex', old_string: 'x', new_string: 'y' }],
        ['Write', { file_path: '/p/a.ex', content: 'x' }],
        ['task_tracker', { command: 'plan', task_list: [] }],
        ['find_user_id_by_email', { email: 'a@example.com' }],
        ['search_direct_flight', { origin: 'MCO', destination: 'BOS', date: '2024-05-21' }],
      ] as const) {
        assert.equal(ptr(tool, args).kind, 'tool', tool);
      }
    });
  });

  it('words a listing as a listing', () => {
    assert.equal(
      pointerText(ptr('list_dir', { path: 'src' })),
      '[offloaded: list_dir listing in src. List it again to restore it.]'
    );
  });

  it('clips long arguments and keeps pointers on one line', () => {
    const p = ptr('update_reservation', { reservation_id: 'JG7FMM', note: 'n'.repeat(500), flights: [1, 2] });
    const text = pointerText(p);
    assert.ok(text.includes('reservation_id: "JG7FMM"'), text);
    assert.ok(text.length < 260, `${text.length}`);
    const shell = pointerText(ptr('bash', { command: 'cat <<EOF\n' + 'x\n'.repeat(300) + 'EOF' }));
    assert.ok(!shell.includes('\n') && shell.length < 260, shell);
  });

  it('copes with arguments that are not a JSON object', () => {
    assert.deepEqual(ptr('bash', 'not json'), { kind: 'tool', tool: 'bash', args: 'not json' });
    assert.deepEqual(ptr('Read', '[1,2]'), { kind: 'tool', tool: 'Read', args: '[1,2]' });
  });

  it('keys reads by path and range', () => {
    assert.equal(readKey(ptr('Read', { file_path: 'a' })), 'a');
    assert.notEqual(readKey(ptr('Read', { file_path: 'a', offset: 5 })), 'a');
    assert.equal(
      readKey(ptr('read_file', { path: 'a', start_line: 3, end_line: 4 })),
      readKey(ptr('Read', { file_path: 'a', offset: 3, limit: 2 }))
    );
    assert.equal(readKey(ptr('bash', { command: 'ls' })), undefined);
  });
});
