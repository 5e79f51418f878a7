import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The shared read-only material: `$SHARED_DIR`, default `../shared` beside the checkout. */
export const sharedDir = resolve(process.env.SHARED_DIR ?? join(__dirname, '..', '..', '..', 'shared'));
export const corpusDir = join(sharedDir, 'corpus');

/** One real agent session in OpenAI Chat Completions format. */
export interface CorpusConversation {
  name: string;
  messages: Record<string, unknown>[];
}

let cache: CorpusConversation[] | undefined;
let anthropicCache: CorpusConversation[] | undefined;

function readSessions(sub: string): CorpusConversation[] {
  const dir = join(corpusDir, sub);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({
      name: f.replace(/\.json$/, ''),
      messages: JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>[],
    }));
}

/** All twelve corpus conversations, loaded once per test process. */
export function corpusConversations(): CorpusConversation[] {
  return (cache ??= readSessions('conversations'));
}

/** The five Claude Code sessions in their own Anthropic Messages shape (`conversations-anthropic`). */
export function anthropicSessions(): CorpusConversation[] {
  return (anthropicCache ??= readSessions('conversations-anthropic'));
}

/** One conversation by name (file name without `.json`). */
export function corpusConversation(name: string): CorpusConversation {
  const found = corpusConversations().find((c) => c.name === name);
  if (!found) throw new Error(`no corpus conversation named ${name} in ${corpusDir}`);
  return found;
}

/** Claude Code's own summary of a Claude Code session's prefix (three exist). */
export function referenceSummary(name: string): string {
  return readFileSync(join(corpusDir, 'reference-summaries', `${name}.summary.md`), 'utf8');
}

/** The 65-record behaviour corpus of seed 000. */
export function openzotCorpus(): { records: { id: string; fn: string; args: unknown[]; expected: unknown }[] } {
  return JSON.parse(readFileSync(join(corpusDir, 'openzot-corpus.json'), 'utf8')) as {
    records: { id: string; fn: string; args: unknown[]; expected: unknown }[];
  };
}
