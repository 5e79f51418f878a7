/**
 * Offload pointers: what an evicted tool result is replaced with. A pointer is typed (a file read, a search, a shell
 * command, a fetch, another tool) and its text tells the model how to get the content back, so eviction loses
 * nothing a tool call cannot restore. Tools are recognised by their name and argument shapes, not by a fixed list of
 * agents: `Read {file_path, offset, limit}` (Claude Code), `str_replace_editor {command: 'view', path, view_range}`
 * (OpenHands), `read_file {path, start_line, end_line}`, `Grep`/`Glob`/`ripgrep` patterns, `bash`/`execute_bash`
 * commands, and so on.
 */
import type { ToolCall } from '../messages/types';
import { clip, oneLine } from './text-clip';

/** Lines of a file, 1-based and inclusive; no `end` means to the end of the file. */
export interface LineRange {
  start: number;
  end?: number;
}

/** How to get an offloaded tool output back. */
export type OffloadPointer =
  /** A file read: read `path` (the `range`, or the whole file) again. */
  | { kind: 'file'; tool: string; path: string; range?: LineRange }
  /** A search or listing: run `query` (in `path`) again; at least one of the two is present. */
  | { kind: 'search'; tool: string; query?: string; path?: string }
  /** A shell command: run `command` again, if that is safe. */
  | { kind: 'shell'; tool: string; command: string }
  /** A fetch of `url`. */
  | { kind: 'fetch'; tool: string; url: string }
  /** Any other tool; `args` is a short rendering of its arguments. */
  | { kind: 'tool'; tool: string; args: string }
  /** A result whose call is unknown. */
  | { kind: 'unknown' };

/** Every pointer's text starts with this, which is how an already offloaded result is recognised. */
export const OFFLOAD_PREFIX = '[offloaded: ';

/** Longest path, query, command or argument rendering written into a pointer, in UTF-16 code units. */
const MAX_PATH = 300;
const MAX_QUERY = 200;
const MAX_COMMAND = 160;
const MAX_ARGS = 160;
const MAX_ARG_VALUE = 60;

const PATH_ARGS = ['path', 'file_path', 'filePath', 'filepath', 'filename', 'file', 'absolute_path', 'target_file'];
const QUERY_ARGS = ['pattern', 'query', 'regex', 'q', 'search', 'search_term', 'glob', 'name'];
const DIR_ARGS = ['path', 'dir', 'directory', 'cwd'];
const READ_WORDS = new Set(['read', 'view', 'cat', 'open', 'show']);
const WRITE_WORDS = new Set(['write', 'edit', 'create', 'delete', 'remove', 'replace', 'insert', 'patch', 'apply']);
const SEARCH_WORDS = new Set(['grep', 'rg', 'ripgrep', 'glob', 'search', 'find', 'query', 'list', 'ls', 'dir']);
const SHELL_WORDS = new Set(['bash', 'shell', 'sh', 'zsh', 'terminal', 'exec', 'execute', 'run', 'command', 'cmd']);
const FETCH_WORDS = new Set(['fetch', 'web', 'url', 'http', 'https', 'browse', 'download', 'curl']);

/**
 * Works out the pointer for the output of `call`.
 * @returns a typed pointer; `{kind: 'unknown'}` when there is no call.
 */
export function pointerFor(call: ToolCall | undefined): OffloadPointer {
  if (!call) return { kind: 'unknown' };
  const tool = call.name;
  const args = parseArgs(call.arguments);
  const words = nameWords(tool);
  const has = (set: Set<string>): boolean => words.some((w) => set.has(w));
  const path = firstString(args, PATH_ARGS);
  const command = commandOf(args);

  // An editor tool with a `view` sub-command (OpenHands) reads; its other sub-commands edit.
  const subCommand = typeof args.command === 'string' ? args.command : undefined;
  const isRead = subCommand === 'view' || (has(READ_WORDS) && !has(WRITE_WORDS) && subCommand === undefined);
  if (isRead && path !== undefined) {
    const range = rangeOf(args);
    return { kind: 'file', tool, path, ...(range ? { range } : {}) };
  }
  if (has(SEARCH_WORDS) && !has(WRITE_WORDS)) {
    const query = firstString(args, QUERY_ARGS);
    const where = firstString(args, DIR_ARGS);
    if (query !== undefined || where !== undefined) {
      return {
        kind: 'search',
        tool,
        ...(query !== undefined ? { query } : {}),
        ...(where !== undefined ? { path: where } : {}),
      };
    }
  }
  if (command !== undefined && has(SHELL_WORDS)) return { kind: 'shell', tool, command };
  const url = typeof args.url === 'string' ? args.url : undefined;
  if (url !== undefined && has(FETCH_WORDS)) return { kind: 'fetch', tool, url };
  return { kind: 'tool', tool, args: renderArgs(args, call.arguments) };
}

/**
 * The text that replaces an offloaded output. Always starts with {@link OFFLOAD_PREFIX}.
 * @returns one line saying what the output was and how to get it back.
 */
export function pointerText(p: OffloadPointer): string {
  switch (p.kind) {
    case 'file': {
      const where = p.range ? ` lines ${p.range.start}-${p.range.end ?? 'end'}` : '';
      const again = p.range ? 'read those lines again to restore them' : 'read the file again to restore it';
      return `${OFFLOAD_PREFIX}${clip(p.path, MAX_PATH)}${where} (read with ${p.tool}). The file is on disk: ${again}.]`;
    }
    case 'search': {
      const what = p.query !== undefined ? `results for ${JSON.stringify(clip(p.query, MAX_QUERY))}` : 'listing';
      const where = p.path !== undefined ? ` in ${clip(p.path, MAX_PATH)}` : '';
      const again = p.query !== undefined ? 'Search again to restore them' : 'List it again to restore it';
      return `${OFFLOAD_PREFIX}${p.tool} ${what}${where}. ${again}.]`;
    }
    case 'shell':
      return `${OFFLOAD_PREFIX}output of ${p.tool} command \`${clip(oneLine(p.command), MAX_COMMAND)}\`. Run it again to restore it, if repeating it is safe.]`;
    case 'fetch':
      return `${OFFLOAD_PREFIX}${p.tool} of ${clip(p.url, MAX_PATH)}. Fetch it again to restore it.]`;
    case 'tool':
      return `${OFFLOAD_PREFIX}output of ${p.tool}(${p.args}), left out to save context.]`;
    case 'unknown':
      return `${OFFLOAD_PREFIX}an earlier tool output, left out to save context.]`;
  }
}

/** True when a tool output is already a pointer (eviction leaves it alone, which makes it idempotent). */
export function isOffloaded(text: string): boolean {
  return text.startsWith(OFFLOAD_PREFIX);
}

/**
 * The key under which file reads supersede each other: the path, plus the range when there is one.
 * @returns `undefined` for a pointer that is not a file read.
 */
export function readKey(p: OffloadPointer): string | undefined {
  if (p.kind !== 'file') return undefined;
  return p.range ? `${p.path}\u0000${p.range.start}-${p.range.end ?? ''}` : p.path;
}

/** The lowercase words of a tool name: `str_replace_editor` → str, replace, editor; `ReadFile` → read, file. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function firstString(args: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = args[k];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return undefined;
}

/** A shell command from `command`/`cmd`: a string, or an argv array (Responses local shell, in `action`). */
function commandOf(args: Record<string, unknown>): string | undefined {
  const action = args.action;
  const sources = typeof action === 'object' && action !== null ? [args, action as Record<string, unknown>] : [args];
  for (const source of sources) {
    for (const k of ['command', 'cmd']) {
      const v = source[k];
      if (typeof v === 'string' && v.trim() !== '') return v;
      if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string')) return v.join(' ');
    }
  }
  return undefined;
}

/**
 * The line range a read names: `start_line`/`end_line` (and camelCase), `view_range: [a, b]` with -1 for the end,
 * or `offset`/`limit` as Claude Code's Read takes them (offset is the first line, limit the line count).
 * @returns `undefined` for a whole-file read.
 */
function rangeOf(args: Record<string, unknown>): LineRange | undefined {
  const num = (k: string): number | undefined => {
    const v = args[k];
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
  };
  const make = (start: number | undefined, end: number | undefined): LineRange | undefined => {
    const s = start !== undefined && start > 1 ? start : 1;
    const e = end !== undefined && end > 0 ? end : undefined;
    return s === 1 && e === undefined ? undefined : { start: s, ...(e !== undefined ? { end: e } : {}) };
  };
  const vr = args.view_range;
  if (Array.isArray(vr) && vr.length === 2 && vr.every((x) => Number.isInteger(x))) {
    return make(vr[0] as number, vr[1] as number);
  }
  const start = num('start_line') ?? num('startLine') ?? num('line_start');
  const end = num('end_line') ?? num('endLine') ?? num('line_end');
  if (start !== undefined || end !== undefined) return make(start, end);
  const offset = num('offset');
  const limit = num('limit');
  if (offset !== undefined || limit !== undefined) {
    const first = offset !== undefined && offset > 1 ? offset : 1;
    return make(first, limit !== undefined && limit > 0 ? first + limit - 1 : undefined);
  }
  return undefined;
}

/** A short rendering of a call's arguments: long string values clipped, the whole clipped too. */
function renderArgs(args: Record<string, unknown>, raw: string): string {
  if (Object.keys(args).length === 0) return clip(oneLine(raw), MAX_ARGS);
  const parts = Object.keys(args).map((k) => {
    const v = args[k];
    const shown = typeof v === 'string' ? JSON.stringify(clip(oneLine(v), MAX_ARG_VALUE)) : JSON.stringify(v);
    return `${k}: ${clip(shown ?? 'null', MAX_ARG_VALUE + 2)}`;
  });
  return clip(parts.join(', '), MAX_ARGS);
}
