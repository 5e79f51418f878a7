/**
 * Prints the extractive-summary comparison table (docs/summarizers.md): `npx tsx bench/summaries.ts [--show NAME]`.
 */
import { CLAUDE_CODE_SESSIONS, formatTable, measureSession } from './summaries-measure';
import type { SessionMeasure } from './summaries-measure';

async function main(): Promise<void> {
  const show = process.argv.indexOf('--show');
  const rows: SessionMeasure[] = [];
  for (const scenario of ['plan', 'whole'] as const) {
    for (const session of CLAUDE_CODE_SESSIONS) rows.push(await measureSession(session, scenario));
  }
  console.log(formatTable(rows));
  const name = show >= 0 ? process.argv[show + 1] : undefined;
  const row = rows.find((r) => name && r.session.endsWith(name) && r.scenario === 'plan');
  if (row) console.log(`\n${row.text}`);
}

void main();
