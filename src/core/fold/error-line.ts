/** Recognising an error report in tool output. */
import { clip, oneLine } from './text-clip';

// A line that *starts* as an error report: "Error: …", "fatal: …", "** (CompileError) …", "TypeError: …",
// "Traceback …", "npm ERR!", a tool-use error tag, or a non-zero exit code. Listings that merely contain the word
// (source code, log lines, "0 failures") do not match.
const ERROR_LINE =
  /^\s*(?:\*\*\s*\(\w*(?:Error|Exception)\)|<tool_use_error>|(?:error|fatal|panic|failed|failure)\b\s*[:!\]]|\[(?:error|fatal)\]|[A-Z]\w*(?:Error|Exception)\b:|Traceback\b|npm ERR!|exit (?:code|status) [1-9])/i;

/**
 * The first line of a tool output that reads like an error; a bare "Exit code 2" is joined with the next non-empty
 * line, which usually carries the message.
 *
 * @param clipAt clip of the line, in characters
 * @returns the line (one line, clipped), or `undefined` when the output shows no error
 */
export function errorLine(text: string, clipAt: number): string | undefined {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => ERROR_LINE.test(l));
  if (at < 0) return undefined;
  const next = /^\s*exit (?:code|status) \d+\s*$/i.test(lines[at] ?? '')
    ? lines.slice(at + 1).find((l) => l.trim())
    : undefined;
  return clip(oneLine(next ? `${lines[at]} — ${next}` : (lines[at] ?? '')), clipAt) || undefined;
}
