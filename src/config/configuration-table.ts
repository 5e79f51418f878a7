/**
 * The configuration table of docs/configuration.md, generated from the schema (a test checks the file holds exactly
 * these rows).
 */
import { schema, type Setting } from './schema';

/** What a section's row says before its keys. */
const SECTION_NOTES: Partial<Record<keyof typeof schema, string>> = {
  compaction: 'defaults of new conversations (their own settings win):',
  summarizer: 'summarizer defaults of new conversations (their own settings win):',
};

/**
 * One row per section: its name and its keys, each as `` `key` `` (default, `ENV`).
 * @returns [section, keys] pairs in schema order.
 */
export function configurationTableRows(): [string, string][] {
  return Object.entries(schema).map(([section, keys]) => {
    const cells = Object.entries(keys as Record<string, Setting>).map(([key, s]) => {
      const parts = [s.default === '' ? 'empty' : String(s.default), ...(s.env ? [`\`${s.env}\``] : [])];
      return `\`${key}\` (${parts.join(', ')})`;
    });
    const note = SECTION_NOTES[section as keyof typeof schema];
    return [`\`${section}\``, `${note ? `${note} ` : ''}${cells.join(', ')}`];
  });
}
