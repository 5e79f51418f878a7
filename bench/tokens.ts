/**
 * Token-counting benchmark (`npm run bench`, or `npx tsx bench/tokens.ts`): our counter vs raw gpt-tokenizer
 * `countTokens` vs js-tiktoken, on the same inputs in one run. Every measurement runs in its own child process, so
 * startup and heap are cold and one library's merge cache never warms another's. Writes bench/results/tokens.json
 * and bench/results/tokens.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type * as Ours from '../src/tokens';
import type * as JsTiktokenLite from 'js-tiktoken/lite';
import { mulberry32 } from '../test/support/rng';

type Lib = 'ours' | 'gpt-tokenizer' | 'js-tiktoken';
const LIBS: Lib[] = ['ours', 'gpt-tokenizer', 'js-tiktoken'];
const ROOT = resolve(__dirname, '..');
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '..', 'shared'));
const MB = 1 << 20;
/** js-tiktoken and the library's own merge are quadratic on one long piece: per-size time cap for those runs. */
const CAP_MS = 6000;

// ---------------------------------------------------------------------------------------------------------------
// Inputs

/** Every text the corpus prices (content, tool-call names and arguments), one entry per text. */
function corpusTexts(): string[] {
  const dir = join(SHARED, 'corpus', 'conversations');
  const texts: string[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    for (const m of JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>[]) {
      if (typeof m.content === 'string' && m.content !== '') texts.push(m.content);
      for (const c of (m.tool_calls as { function: { name: string; arguments: string } }[] | undefined) ?? []) {
        texts.push(c.function.name, c.function.arguments);
      }
    }
  }
  return texts;
}

function corpusMessages(): { format: 'chat'; messages: unknown[] }[] {
  const dir = join(SHARED, 'corpus', 'conversations');
  return readdirSync(dir)
    .filter((x) => x.endsWith('.json'))
    .sort()
    .map((f) => ({ format: 'chat' as const, messages: JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown[] }));
}

const seeded = mulberry32;

/** The three named worst cases at `size` characters. */
const WORST: Record<string, (size: number) => string> = {
  'repeated char': (n) => 'a'.repeat(n),
  'unbroken identifier': (n) => {
    const r = seeded(1);
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(97 + Math.floor(r() * 26));
    return s;
  },
  'minified JSON': (n) => {
    const r = seeded(2);
    const parts: string[] = [];
    let size = 2;
    for (let i = 0; size < n; i++) {
      const v = r() < 0.5 ? String(Math.floor(r() * 1e6)) : JSON.stringify(Math.floor(r() * 1e12).toString(36));
      const p = `"key_${i}":${v}`;
      parts.push(p);
      size += p.length + 1;
    }
    return `{${parts.join(',')}}`.slice(0, n);
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Child side: one library, one task, results as JSON on stdout.

type Counter = (text: string) => number;

/* eslint-disable @typescript-eslint/no-require-imports -- the child loads exactly one library, on purpose late */
function load(lib: Lib): Counter {
  if (lib === 'ours') {
    const { countText } = require('../src/tokens') as typeof Ours;
    return (t) => countText(t, 'o200k_base');
  }
  if (lib === 'gpt-tokenizer') {
    const lib = require('gpt-tokenizer/encoding/o200k_base') as { countTokens: (t: string, o?: object) => number };
    const countTokens = lib.countTokens;
    // Raw library call; special-token strings counted as text like ours (the default would throw on them).
    const ordinary = { disallowedSpecial: new Set<string>() };
    return (t) => countTokens(t, ordinary);
  }
  const { Tiktoken } = require('js-tiktoken/lite') as typeof JsTiktokenLite;
  type Ranks = ConstructorParameters<typeof Tiktoken>[0];
  const mod = require('js-tiktoken/ranks/o200k_base') as Ranks & { default?: Ranks };
  const ranks = mod.default ?? mod; // the CJS build exports the ranks object itself
  const enc = new Tiktoken(ranks);
  return (t) => enc.encode(t, [], []).length;
}
/* eslint-enable @typescript-eslint/no-require-imports */

const now = (): number => performance.now();
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const heapMB = (): number => process.memoryUsage().heapUsed / MB;

function child(lib: Lib, task: string, inputFile: string): unknown {
  if (task === 'startup') {
    gc();
    const heap0 = heapMB();
    const t0 = now();
    const count = load(lib);
    count('warm up the encoder: hello world');
    const startupMs = now() - t0;
    gc();
    return { startupMs, heapMB: heapMB() - heap0, rssMB: process.memoryUsage().rss / MB };
  }
  const count = load(lib);
  if (task === 'corpus') {
    const texts = JSON.parse(readFileSync(inputFile, 'utf8')) as string[];
    const bytes = texts.reduce((a, t) => a + Buffer.byteLength(t), 0);
    let tokens = 0;
    for (const t of texts) tokens += count(t); // warm-up pass (JIT and merge caches), not timed
    const passes: number[] = [];
    for (let p = 0; p < 3; p++) {
      const t0 = now();
      for (const t of texts) count(t);
      passes.push(now() - t0);
    }
    const ms = passes.sort((a, b) => a - b)[1]!;
    const result: Record<string, unknown> = {
      texts: texts.length,
      bytes,
      tokens,
      ms,
      mbPerS: bytes / MB / (ms / 1000),
      usPerText: (ms * 1000) / texts.length,
      heapMB: (gc(), heapMB()),
    };
    if (lib === 'ours') Object.assign(result, messagePricing());
    return result;
  }
  // task = worst:<case>:<size>
  const [, name, size] = task.split(':');
  const text = WORST[name!]!(Number(size));
  // One-time costs are not the worst case: load the encoding, then (ours) build the byte rank table that long
  // pieces use, timed separately, with a short unrelated long piece.
  count('load the encoding');
  const s0 = now();
  count('q'.repeat(300));
  const firstLongPieceMs = now() - s0;
  gc();
  const t0 = now();
  const tokens = count(text);
  return { ms: now() - t0, tokens, chars: text.length, firstLongPieceMs };
}

/** Whole-message pricing through the counter: cold (cache off) and a re-count of the same history (cache on). */
function messagePricing(): Record<string, number> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createTokenCounter } = require('../src/tokens') as typeof Ours;
  const convs = corpusMessages();
  const n = convs.reduce((a, c) => a + c.messages.length, 0);
  const cold = createTokenCounter({ model: 'gpt-4o', cacheSize: 0 });
  for (const c of convs) cold.countMessages(c.messages, c.format); // warm-up
  let t0 = now();
  for (const c of convs) cold.countMessages(c.messages, c.format);
  const usPerMessage = ((now() - t0) * 1000) / n;
  const cached = createTokenCounter({ model: 'gpt-4o' });
  for (const c of convs) cached.countMessages(c.messages, c.format);
  t0 = now();
  for (const c of convs) cached.countMessages(c.messages, c.format);
  return { messages: n, usPerMessage, usPerCachedMessage: ((now() - t0) * 1000) / n };
}

// ---------------------------------------------------------------------------------------------------------------
// Parent side.

function spawn(lib: Lib, task: string, inputFile = ''): Record<string, number> {
  const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cjs', 'index.cjs');
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--require', tsx, __filename, '--child', lib, task, inputFile],
    {
      encoding: 'utf8',
      maxBuffer: 16 * MB,
    }
  );
  return JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
}

/** Times a worst case at growing sizes until one exceeds the cap; extrapolates quadratically to 1 MB if needed. */
function worstCase(
  lib: Lib,
  name: string,
  sizes: number[]
): { points: { chars: number; ms: number; tokens: number }[]; ms1MB: number; measured: boolean; setupMs: number } {
  const points: { chars: number; ms: number; tokens: number }[] = [];
  let setupMs = 0;
  for (const size of sizes) {
    const r = spawn(lib, `worst:${name}:${size}`);
    points.push({ chars: size, ms: r.ms!, tokens: r.tokens! });
    setupMs = Math.max(setupMs, r.firstLongPieceMs!);
    if (r.ms! > CAP_MS) break;
  }
  const last = points[points.length - 1]!;
  if (last.chars === MB) return { points, ms1MB: last.ms, measured: true, setupMs };
  // Quadratic model from the largest point (the growth between points is reported alongside, so it can be checked).
  return { points, ms1MB: last.ms * (MB / last.chars) ** 2, measured: false, setupMs };
}

function main(): void {
  const started = now();
  const dir = mkdtempSync(join(tmpdir(), 'bench-tokens-'));
  const inputFile = join(dir, 'corpus.json');
  writeFileSync(inputFile, JSON.stringify(corpusTexts()));

  const startup: Record<string, Record<string, number>> = {};
  const corpus: Record<string, Record<string, number>> = {};
  // Three rounds, libraries interleaved within each round, median per library: on a shared 2-core machine one
  // child can be ±15% off, and interleaving spreads background load over all three.
  const startupRuns: Record<string, Record<string, number>[]> = {};
  const corpusRuns: Record<string, Record<string, number>[]> = {};
  for (let round = 0; round < 3; round++) {
    for (const lib of LIBS) {
      (startupRuns[lib] ??= []).push(spawn(lib, 'startup'));
      (corpusRuns[lib] ??= []).push(spawn(lib, 'corpus', inputFile));
    }
  }
  const median = (runs: Record<string, number>[], k: string): number =>
    runs.map((r) => r[k]!).sort((a, b) => a - b)[1]!;
  for (const lib of LIBS) {
    const s = startupRuns[lib]!;
    startup[lib] = { startupMs: median(s, 'startupMs'), heapMB: median(s, 'heapMB'), rssMB: median(s, 'rssMB') };
    const byThroughput = [...corpusRuns[lib]!].sort((a, b) => a.mbPerS! - b.mbPerS!);
    corpus[lib] = { ...byThroughput[1]!, mbPerSMin: byThroughput[0]!.mbPerS!, mbPerSMax: byThroughput[2]!.mbPerS! };
    console.error(
      `${lib}: startup ${startup[lib].startupMs!.toFixed(0)} ms, corpus ${corpus[lib].mbPerS!.toFixed(2)} MB/s`
    );
  }

  const worst: Record<string, Record<string, ReturnType<typeof worstCase>>> = {};
  for (const name of Object.keys(WORST)) {
    const pathological = name !== 'minified JSON';
    worst[name] = {
      ours: worstCase('ours', name, [256 * 1024, 512 * 1024, MB]),
      'gpt-tokenizer': worstCase(
        'gpt-tokenizer',
        name,
        pathological ? [8192, 16384, 32768] : [256 * 1024, 512 * 1024, MB]
      ),
      'js-tiktoken': worstCase('js-tiktoken', name, pathological ? [2048, 4096, 8192] : [256 * 1024, MB]),
    };
    console.error(`${name}: ours ${worst[name].ours!.ms1MB.toFixed(0)} ms / MB`);
  }

  const ratio = corpus.ours!.mbPerS! / corpus['gpt-tokenizer']!.mbPerS!;
  const results = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? '', node: process.version },
    encoding: 'o200k_base',
    startup,
    corpus,
    throughputRatioVsGptTokenizer: ratio,
    worst,
    identicalCorpusTokens:
      corpus.ours!.tokens === corpus['gpt-tokenizer']!.tokens && corpus.ours!.tokens === corpus['js-tiktoken']!.tokens,
    benchSeconds: (now() - started) / 1000,
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'tokens.json'), JSON.stringify(results, null, 2) + '\n');
  const md = markdown(results);
  writeFileSync(join(ROOT, 'bench', 'results', 'tokens.md'), md);
  console.log(md);
}

function markdown(r: {
  machine: { cpus: number; model: string; node: string };
  startup: Record<string, Record<string, number>>;
  corpus: Record<string, Record<string, number>>;
  throughputRatioVsGptTokenizer: number;
  worst: Record<string, Record<string, ReturnType<typeof worstCase>>>;
  identicalCorpusTokens: boolean;
  benchSeconds: number;
}): string {
  const f = (x: number | undefined, d = 1): string => (x === undefined ? '–' : x.toFixed(d));
  const c = r.corpus;
  const lines = [
    `Token counting, o200k_base, ${r.machine.cpus} × ${r.machine.model}, Node ${r.machine.node}. One run of \`npm run bench\` (${f(r.benchSeconds, 0)} s); each cell is its own child process.`,
    '',
    `Corpus: ${c.ours!.texts} texts (every content, tool name and arguments of the 12 corpus sessions), ${f(c.ours!.bytes! / MB, 2)} MB, ${c.ours!.tokens} tokens; identical counts from all three: ${r.identicalCorpusTokens ? 'yes' : 'NO'}.`,
    '',
    '| | ours | gpt-tokenizer `countTokens` | js-tiktoken `encode().length` |',
    '|---|---|---|---|',
    `| corpus throughput (warm, MB/s; median of 3, range) | ${LIBS.map((l) => `${f(c[l]!.mbPerS, 2)} (${f(c[l]!.mbPerSMin, 1)}–${f(c[l]!.mbPerSMax, 1)})`).join(' | ')} |`,
    `| per text (µs) | ${LIBS.map((l) => f(c[l]!.usPerText, 1)).join(' | ')} |`,
    `| cold startup: load + first count (ms) | ${LIBS.map((l) => f(r.startup[l]!.startupMs, 0)).join(' | ')} |`,
    `| heap after startup (MB) | ${LIBS.map((l) => f(r.startup[l]!.heapMB, 1)).join(' | ')} |`,
    `| heap after corpus (MB) | ${LIBS.map((l) => f(c[l]!.heapMB, 1)).join(' | ')} |`,
    '',
    `Throughput ours / raw gpt-tokenizer: **${f(r.throughputRatioVsGptTokenizer, 2)}×** (goal ≥ 0.9×; ours calls the same \`countTokens\` after a scan costing < 1%, so a difference beyond that is run-to-run noise). Whole-message pricing (cookbook overhead, tool calls): ${f(c.ours!.usPerMessage, 1)} µs per message uncached, ${f(c.ours!.usPerCachedMessage, 2)} µs re-counting a cached history (${c.ours!.messages} messages).`,
    '',
    `Worst cases, time to count one text (ms), after loading the encoding. \`~\` = extrapolated to 1 MB from the largest size measured, as c·n² (the measured sizes show the growth); ours is always measured. Ours builds its byte rank table once per process on the first long piece: ${f(Math.max(...Object.values(r.worst).map((w) => w.ours!.setupMs)), 0)} ms, not included.`,
    '',
    '| input | ours 256 KB | ours 512 KB | ours 1 MB | ours 1 MB / 256 KB | gpt-tokenizer | js-tiktoken |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [name, w] of Object.entries(r.worst)) {
    const o = w.ours!.points;
    const other = (l: Lib): string => {
      const x = w[l]!;
      const pts = x.points
        .map((p) => `${p.chars >= 1024 ? p.chars / 1024 + ' KB' : p.chars}: ${f(p.ms, 0)}`)
        .join(', ');
      return `${x.measured ? '' : '~'}${f(x.ms1MB, 0)} at 1 MB (${pts})`;
    };
    lines.push(
      `| ${name} | ${f(o[0]?.ms, 0)} | ${f(o[1]?.ms, 0)} | ${f(o[2]?.ms, 0)} | ${f((o[2]?.ms ?? 0) / (o[0]?.ms ?? 1), 2)}× (linear: 4×) | ${other('gpt-tokenizer')} | ${other('js-tiktoken')} |`
    );
  }
  return lines.join('\n') + '\n';
}

if (process.argv[2] === '--child') {
  const [, , , lib, task, inputFile] = process.argv;
  process.stdout.write(JSON.stringify(child(lib as Lib, task!, inputFile ?? '')) + '\n');
} else {
  main();
}
