/**
 * Prices of Anthropic Messages content blocks. Claude has no public offline tokenizer, so text is counted with the
 * model's configured encoding (the counter's estimate, corrected by calibration); media are priced by Anthropic's
 * published rules, never by the text of their base64 data.
 */
import { isObj, json, type Obj } from './json-values';
import { imageSizeFromDataUrl } from './image-size';

/** Counts the raw tokens of a text (no overhead). */
type TextCount = (text: string) => number;

/**
 * Anthropic's vision guide: an image costs about width × height / 750 tokens, after images whose long edge exceeds
 * 1 568 px are scaled down (which caps an image at about 1 600 tokens).
 */
export const ANTHROPIC_IMAGE_PIXELS_PER_TOKEN = 750;
/** Long edge an image is scaled down to (vision guide). */
export const ANTHROPIC_IMAGE_MAX_SIDE = 1568;
/** An image whose size cannot be read (URL or file source): the guide's cap, about 1 600 tokens. */
export const ANTHROPIC_IMAGE_MAX_TOKENS = 1600;
/**
 * A PDF page (PDF support guide): its text, 1 500–3 000 tokens a page (the upper end is taken), plus an image of the
 * page (the image cap). A PDF whose pages cannot be counted (URL or file source) is priced as one page.
 */
export const ANTHROPIC_PDF_PAGE_TOKENS = 3000 + ANTHROPIC_IMAGE_MAX_TOKENS;

/**
 * Tokens of an image of `width` × `height` pixels by the vision guide's rule.
 * @returns ceil(w × h / 750) after fitting the long edge in 1 568 px.
 */
export function anthropicImageTokens(width: number, height: number): number {
  const fit = Math.min(1, ANTHROPIC_IMAGE_MAX_SIDE / Math.max(width, height));
  return Math.ceil((width * fit * (height * fit)) / ANTHROPIC_IMAGE_PIXELS_PER_TOKEN);
}

/** Pages of a base64 PDF: its `/Type /Page` objects (not `/Pages`), at least one. */
function pdfPages(base64: string): number {
  const text = Buffer.from(base64, 'base64').toString('latin1');
  return Math.max(1, (text.match(/\/Type\s*\/Page(?!s)/g) ?? []).length);
}

function imagePrice(source: Obj): number {
  if (source.type === 'base64' && typeof source.data === 'string') {
    const size = imageSizeFromDataUrl(`data:${String(source.media_type)};base64,${source.data}`);
    if (size) return anthropicImageTokens(size.width, size.height);
  }
  return ANTHROPIC_IMAGE_MAX_TOKENS;
}

function documentPrice(source: Obj, count: TextCount): number {
  if (source.type === 'text') return count(json(source.data));
  if (source.type === 'content') return anthropicContentTokens(source.content, count);
  if (source.type === 'base64' && typeof source.data === 'string')
    return pdfPages(source.data) * ANTHROPIC_PDF_PAGE_TOKENS;
  return ANTHROPIC_PDF_PAGE_TOKENS;
}

/** Tokens of one block: its text, or its tool name and input, or its media price; an unknown block by its JSON. */
function blockTokens(b: Obj, count: TextCount): number {
  const source = isObj(b.source) ? b.source : undefined;
  switch (b.type) {
    case 'text':
      return count(json(b.text)) + (b.citations === undefined ? 0 : count(json(b.citations)));
    case 'thinking':
      return count(json(b.thinking));
    case 'redacted_thinking':
      return count(json(b.data));
    case 'tool_use':
    case 'server_tool_use':
    case 'mcp_tool_use':
      return count(json(b.name)) + count(json(b.input));
    case 'tool_result':
    case 'mcp_tool_result':
      return anthropicContentTokens(b.content, count);
    case 'image':
      return source ? imagePrice(source) : count(json(b));
    case 'document':
      return source
        ? documentPrice(source, count) + (typeof b.title === 'string' ? count(b.title) : 0)
        : count(json(b));
    case 'search_result':
      return count(json(b.title)) + count(json(b.source)) + anthropicContentTokens(b.content, count);
    default:
      return count(json(b));
  }
}

/**
 * Tokens of an Anthropic `content` value (a string or blocks), as `priceMessage` adds them to a message's body.
 * @returns the sum over its blocks; 0 for absent content.
 */
export function anthropicContentTokens(content: unknown, count: TextCount): number {
  if (content === undefined || content === null) return 0;
  if (typeof content === 'string') return count(content);
  if (!Array.isArray(content)) return count(json(content));
  return content.reduce<number>((total, b) => total + (isObj(b) ? blockTokens(b, count) : count(json(b))), 0);
}
