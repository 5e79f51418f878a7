/**
 * `npm run bench [name]`: runs one benchmark script from bench/ (default: tokens; also: workflow, fold-latency, archive, canaries). Each script writes its own
 * results under bench/results/.
 */
export {};

const benches: Record<string, () => void> = {
  tokens: () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loading the script runs it
    require('./tokens');
  },
  canaries: () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loading the script runs it
    require('./canaries');
  },
  workflow: () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loading the script runs it
    require('./workflow');
  },
  'fold-latency': () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loading the script runs it
    require('./fold-latency');
  },
  archive: () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loading the script runs it
    require('./archive');
  },
};

const name = process.argv[2] ?? 'tokens';
const run = benches[name];
if (!run) {
  console.error(`unknown bench '${name}' (known: ${Object.keys(benches).join(', ')})`);
  process.exit(2);
}
run();
