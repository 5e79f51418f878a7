/** Errors seen in tool output: the first line that reads like an error, with the call that produced it. */
import { clip, oneLine } from '../../core/fold/clip';
import type { Item } from '../../core/messages/types';

// A line that *starts* as an error report: "Error: …", "fatal: …", "** (CompileError) …", "TypeError: …",
// "Traceback …", "npm ERR!", a tool-use error tag, or a non-zero exit code. Listings that merely contain the word
// (source code, log lines, "0 failures") do not match.
const ERROR_LINE =
  /^\s*(?:\*\*\s*\(\w*(?:Error|Exception)\)|<tool_use_error>|(?:error|fatal|panic|failed|failure)\b\s*[:!\]]|\[(?:error|fatal)\]|[A-Z]\w*(?:Error|Exception)\b:|Traceback\b|npm ERR!|exit (?:code|status) [1-9])/i;

/** One error seen. */
export interface SeenError {
  /** The tool whose result showed it. */
  tool: string;
  line: string;
  index: number;
}

/**
 * The errors in the head's tool results, one per result, deduplicated by line.
 *
 * @param clipAt clip of the error line, in characters
 * @returns the errors in order
 */
export function collectErrors(items: readonly Item[], clipAt: number): SeenError[] {
  const out: SeenError[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (item.role !== 'tool' && item.role !== 'activity') continue;
    const lines = item.text.split('\n');
    const at = lines.findIndex((l) => ERROR_LINE.test(l));
    if (at < 0) continue;
    // A bare "Exit code 2" says little: the first line after it is usually the message.
    const next = /^\s*exit (?:code|status) \d+\s*$/i.test(lines[at] ?? '')
      ? lines.slice(at + 1).find((l) => l.trim())
      : undefined;
    const text = clip(oneLine(next ? `${lines[at]} — ${next}` : (lines[at] ?? '')), clipAt);
    if (!text || seen.has(text)) continue;
    seen.add(text);
    out.push({ tool: item.answers?.name ?? item.role, line: text, index: item.index });
  }
  return out;
}
