/**
 * Rendering the head of a conversation as a clipped plain transcript for a summarizer: what people said is
 * kept nearly whole, tool mechanics take one line each, tool output is clipped. The model needs the story, not the
 * payloads; the payloads stay in the archive.
 */
import type { Item } from '../messages/types';
import { clip, oneLine } from './text-clip';

/** Clip lengths of {@link renderHead}, in UTF-16 code units. */
export interface RenderOptions {
  /** User and assistant prose (a previous summary is never clipped). @default 4000 */
  proseClip?: number;
  /** Tool-call arguments. @default 220 */
  argsClip?: number;
  /** Tool results and typed-message activities. @default 220 */
  outputClip?: number;
}

/** Defaults of {@link RenderOptions}. */
export const RENDER_DEFAULTS: Required<RenderOptions> = { proseClip: 4000, argsClip: 220, outputClip: 220 };

/**
 * The lines of one item. Instructions are left out (they are never folded and may lead the request as the system
 * prompt); reasoning is left out (a summarizer never sees the agent's reasoning).
 *
 * @returns zero or more lines
 */
export function renderItem(item: Item, options: RenderOptions = {}): string[] {
  const o = { ...RENDER_DEFAULTS, ...options };
  const lines: string[] = [];
  const prose = item.text.trim();
  switch (item.role) {
    case 'user':
      if (prose) lines.push(`User: ${clip(prose, o.proseClip)}`);
      break;
    case 'assistant':
      if (prose) lines.push(`Assistant: ${clip(prose, o.proseClip)}`);
      break;
    case 'summary':
      // Whole: it already condenses everything folded before, and its size is bounded by the summary output cap.
      if (prose) lines.push(`Summary so far: ${prose}`);
      break;
    case 'tool': {
      const name = item.answers?.name;
      const label = name ? `result of ${name}` : 'result';
      lines.push(`  (${label}: ${clip(oneLine(prose), o.outputClip) || 'empty'})`);
      break;
    }
    case 'activity':
      if (prose) lines.push(`Activity: ${clip(oneLine(prose), o.outputClip)}`);
      break;
    case 'other':
      if (prose) lines.push(`(other item: ${clip(oneLine(prose), o.outputClip)})`);
      break;
    case 'instructions':
    case 'reasoning':
      break;
  }
  for (const call of item.calls) {
    lines.push(`Assistant called ${call.name}(${clip(oneLine(call.arguments), o.argsClip)})`);
  }
  return lines;
}

/**
 * Renders the items to fold as one plain transcript, one line per prose message, call or result.
 *
 * @returns the transcript, without a trailing newline ("" for nothing renderable)
 */
export function renderHead(items: readonly Item[], options: RenderOptions = {}): string {
  return items
    .flatMap((item) => renderItem(item, options))
    .join('\n')
    .trimEnd();
}
