import { RankTable } from './src/tokens/rank-table';
import { mergeByBuckets, mergeByHeap } from './src/tokens/long-piece';
const t = new RankTable(require('gpt-tokenizer/bpeRanks/o200k_base').default);
function rnd(n: number, a: string) { let s = ''; for (let i = 0; i < n; i++) s += a[Math.floor(Math.random() * a.length)]; return s; }
const s = rnd(1 << 20, 'abcdefghijklmnopqrstuvwxyz');
mergeByBuckets(s.slice(0, 5000), t);
for (let k = 0; k < 3; k++) { let t0 = Date.now(); mergeByBuckets(s, t); const a = Date.now() - t0; t0 = Date.now(); mergeByHeap(s, t); console.log('buckets', a, 'heap', Date.now() - t0); }
