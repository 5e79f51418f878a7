/**
 * The bad-input catalogue of the command line: hostile files given to every command that reads one (deep nesting,
 * huge files, malformed JSON, wrong shapes, FIFOs, devices, folders). Each must exit 2 with one line naming what is
 * wrong, print nothing on stdout, and never hang.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main';
import { repoRoot, spawnTs } from '../support/processes';

/** Runs the CLI; a command still running after 60 s is killed and fails the test (a hang is a defect here). */
async function runCli(args: string[], input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = spawnTs('src/cli/main.ts', args, {});
  p.child.stdin!.end(input);
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 60_000);
  const code = await p.exit;
  clearTimeout(timer);
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

/** `depth` nested arrays around a string, written without recursion. */
const nestedJson = (depth: number): string => '['.repeat(depth) + '"x"' + ']'.repeat(depth);

describe('bad-input catalogue: the CLI with hostile files', function () {
  this.timeout(300_000);
  const dir = mkdtempSync(join(tmpdir(), 'dc-hostile-'));
  const file = (name: string, content: string): string => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const sparse = (name: string, bytes: number): string => {
    const path = join(dir, name);
    const fd = openSync(path, 'w');
    ftruncateSync(fd, bytes);
    closeSync(fd);
    return path;
  };
  const fifo = (name: string): string => {
    const path = join(dir, name);
    execFileSync('mkfifo', [path]);
    return path;
  };

  const deepMessage = file('deep.json', `[{"role":"user","content":${nestedJson(10_000)}}]`);
  const deepTyped = file('deep-typed.json', `[{"role":"user","content":"hi","extra":${nestedJson(10_000)}}]`);
  // Read in this process (the commands read synchronously: what could hang is run as a process below).
  const hostile: [what: string, path: () => string, stderr: RegExp][] = [
    ['10 000-deep nested content', () => deepMessage, /message 0 nests deeper than 64 levels/],
    ['10 000-deep nesting in an unknown field', () => deepTyped, /message 0 nests deeper than 64 levels/],
    ['a 65-deep message', () => file('d65.json', `[{"role":"user","content":${nestedJson(65)}}]`), /64 levels/],
    ['malformed JSON', () => file('bad.json', '[{"role":'), /not valid JSON/],
    ['an empty file', () => file('empty.json', ''), /not valid JSON/],
    ['a JSON object', () => file('obj.json', '{"messages":[]}'), /JSON array/],
    ['null', () => file('null.json', 'null'), /JSON array of messages, found null/],
    ['an array of numbers', () => file('nums.json', '[1,2,3]'), /message 0/],
    ['a file over the size limit', () => sparse('huge.json', 300 * 1024 * 1024), /over the 256 MiB limit/],
    ['a folder', () => dir, /not a regular file/],
    ['a missing file', () => join(dir, 'nope.json'), /cannot read .*ENOENT/],
  ];
  const commands: [string, string[]][] = [
    ['plan', ['plan', '--model', 'gpt-4o', '--budget', '4000']],
    ['count', ['count', '--model', 'gpt-4o']],
    ['fold', ['fold', '--model', 'gpt-4o', '--budget', '4000']],
  ];

  it(`${hostile.length} hostile files: plan, count and fold answer exit 2 with one line naming the problem`, async () => {
    for (const [what, path, stderr] of hostile) {
      const target = path();
      for (const [name, args] of commands) {
        const out: string[] = [];
        const err: string[] = [];
        const code = await main([...args, target], { stdout: (l) => out.push(l), stderr: (l) => err.push(l) });
        assert.equal(code, 2, `${name}, ${what}: ${err.join('\n')}`);
        assert.deepEqual(out, [], `${name}, ${what}`);
        assert.equal(err.length, 1, `${name}, ${what}: one line`);
        assert.match(err[0]!, stderr, `${name}, ${what}`);
      }
    }
  });

  it('a FIFO nobody writes to and a device: exit 2 at once (they used to hang or exhaust memory)', async () => {
    const pipe = fifo('fifo.json');
    for (const [target, stderr] of [
      [pipe, /fifo\.json is not a regular file \(pipe it to stdin with -\)/],
      ['/dev/zero', /\/dev\/zero is not a regular file/],
    ] as const) {
      const r = await runCli(['count', '--model', 'gpt-4o', target]);
      assert.equal(r.code, 2, `${target}: ${r.code} ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, stderr);
    }
  });

  it('as a process, 10 000-deep content exits 2 (it used to exit 1: Maximum call stack size exceeded)', async () => {
    const r = await runCli(['plan', '--model', 'gpt-4o', '--budget', '4000', deepMessage]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^durable-compaction plan: .*deep\.json: message 0 nests deeper than 64 levels/);
  });

  it('stdin: deep nesting and malformed JSON exit 2, endless input is cut at the size limit', async () => {
    const deep = await runCli(['plan', '--model', 'gpt-4o', '--budget', '4000', '-'], `[${nestedJson(10_000)}]`);
    assert.equal(deep.code, 2, deep.stderr);
    assert.match(deep.stderr, /message 0 nests deeper than 64 levels/);
    const bad = await runCli(['count', '--model', 'gpt-4o', '-'], '[{');
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /not valid JSON/);
    const endless = execFileSync(
      'bash',
      [
        '-c',
        `head -c ${257 * 1024 * 1024} /dev/zero | '${join(repoRoot, 'bin', 'durable-compaction')}' count --model gpt-4o - 2>&1; echo "rc=$?"`,
      ],
      { maxBuffer: 1 << 20 }
    ).toString();
    assert.match(endless, /^durable-compaction count: stdin is over the 256 MiB limit of an input file\nrc=2\n$/);
  });
});
