/**
 * The configuration table of docs/configuration.md, generated from the schema (a test checks the file holds exactly
 * these rows).
 */
import { schema, type Setting } from './schema';

/** What a section's row says before its keys. */
const SECTION_NOTES: Partial<Record<keyof typeof schema, string>> = {
  archive: "`encrypt` uses the codec's keys (see [archive.md](archive.md#encryption-at-rest)):",
  compaction: 'defaults of new conversations (their own settings win):',
  summarizer: 'the summarizer profile named `default` (conversations pick a profile by name):',
  retention: 'closed conversations are purged after a period (see [archive.md](archive.md#retention)):',
  counting: 'token counting for models without an offline tokenizer (see [tokens.md](tokens.md)):',
  metrics: 'Prometheus endpoints, port 0 = off (see [operations.md](operations.md)):',
};

/** Rows of the sections that are maps rather than fixed keys (not in the schema's key table). */
const MAP_SECTIONS: [string, string][] = [
  ['`summarizerProfiles`', 'further named profiles: name → the same keys as `summarizer` (no environment variables)'],
];

/**
 * One row per section: its name and its keys, each as `` `key` `` (default, `ENV`).
 * @returns [section, keys] pairs in schema order.
 */
export function configurationTableRows(): [string, string][] {
  const rows = Object.entries(schema).map(([section, keys]): [string, string] => {
    const cells = Object.entries(keys as Record<string, Setting>).map(([key, s]) => {
      const parts = [s.default === '' ? 'empty' : String(s.default), ...(s.env ? [`\`${s.env}\``] : [])];
      return `\`${key}\` (${parts.join(', ')})`;
    });
    const note = SECTION_NOTES[section as keyof typeof schema];
    return [`\`${section}\``, `${note ? `${note} ` : ''}${cells.join(', ')}`];
  });
  return [...rows, ...MAP_SECTIONS];
}
