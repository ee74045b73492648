import { SaxesParser, type SaxesTagPlain } from 'saxes';

/** Prosody of a run of text, each a percentage of the voice's own default. */
export interface Prosody {
  readonly rate: number;
  readonly pitch: number;
  readonly volume: number;
}

export type MarkupPart =
  | { readonly kind: 'text'; readonly text: string; readonly prosody: Prosody }
  | { readonly kind: 'break'; readonly ms: number };

/** A legacy `Msg` after strict parsing: text runs with their prosody, and pauses. */
export interface SpeechMarkup {
  readonly parts: readonly MarkupPart[];
}

export type ParsedMarkup = { ok: true; markup: SpeechMarkup } | { ok: false; error: string };

export const MAX_BREAK_MS = 10_000;
const MAX_DEPTH = 8;
const ROOT = 'speech';
const ALLOWED = 'only <break time="..."/> and <prosody rate|pitch|volume="..."> are allowed';

const DEFAULT_PROSODY: Prosody = { rate: 100, pitch: 100, volume: 100 };

interface ProsodyRule {
  keywords: Record<string, number>;
  /** The relative unit of the attribute ("%" or "dB") and the bound of a relative value. */
  unit: '%' | 'dB';
  maxRelative: number;
  /** Bounds of the resulting percentage, after nesting. */
  min: number;
  max: number;
  hint: string;
}

/**
 * Accepted value forms (SSML 1.1 subset): a keyword, or a relative change in the attribute's
 * unit applied to the enclosing value; rate also takes an absolute percentage.
 */
const PROSODY_RULES: Record<keyof Prosody, ProsodyRule> = {
  rate: {
    keywords: { 'x-slow': 50, slow: 75, medium: 100, default: 100, fast: 140, 'x-fast': 180 },
    unit: '%',
    maxRelative: 100,
    min: 50,
    max: 200,
    hint: 'x-slow, slow, medium, fast, x-fast, default, a percentage 50%..200% or +N%/-N% (N ≤ 100)',
  },
  pitch: {
    keywords: { 'x-low': 60, low: 80, medium: 100, default: 100, high: 125, 'x-high': 150 },
    unit: '%',
    maxRelative: 100,
    min: 50,
    max: 200,
    hint: 'x-low, low, medium, high, x-high, default or +N%/-N% (N ≤ 100)',
  },
  volume: {
    keywords: {
      silent: 0,
      'x-soft': 25,
      soft: 50,
      medium: 100,
      default: 100,
      loud: 150,
      'x-loud': 200,
    },
    unit: 'dB',
    maxRelative: 40,
    min: 0,
    max: 200,
    hint: 'silent, x-soft, soft, medium, loud, x-loud, default or +NdB/-NdB (N ≤ 40)',
  },
};

class MarkupError extends Error {}

/** The value of one prosody attribute as a percentage, given the enclosing value. */
function prosodyValue(name: keyof Prosody, raw: string, enclosing: number): number {
  const rule = PROSODY_RULES[name];
  const value = raw.trim();
  const keyword = rule.keywords[value];
  if (keyword !== undefined) return keyword;
  const match = /^([+-]?)(\d{1,3}(?:\.\d+)?)(%|dB)$/.exec(value);
  if (match) {
    const [, sign, digits, unit] = match;
    const amount = Number(digits);
    if (sign === '' && unit === '%' && name === 'rate' && amount >= rule.min && amount <= rule.max)
      return amount;
    if (sign !== '' && unit === rule.unit && amount <= rule.maxRelative) {
      const signed = sign === '-' ? -amount : amount;
      const factor = unit === 'dB' ? 10 ** (signed / 20) : 1 + signed / 100;
      return Math.round(Math.min(rule.max, Math.max(rule.min, enclosing * factor)) * 10) / 10;
    }
  }
  throw new MarkupError(`<prosody ${name}="${raw}"> is not accepted: use ${rule.hint}`);
}

/** Pause length in ms from `500ms` or `1.5s`, at most MAX_BREAK_MS. */
function breakMs(raw: string | undefined): number {
  if (raw === undefined) throw new MarkupError('<break> needs a time attribute, e.g. time="500ms"');
  const match = /^(\d{1,5}(?:\.\d+)?)(ms|s)$/.exec(raw.trim());
  const ms = match ? Number(match[1]) * (match[2] === 's' ? 1000 : 1) : Number.NaN;
  if (!(ms >= 0 && ms <= MAX_BREAK_MS))
    throw new MarkupError(
      `<break time="${raw}"> is not accepted: use milliseconds or seconds up to ${MAX_BREAK_MS / 1000}s, e.g. "500ms" or "2s"`,
    );
  return Math.round(ms);
}

function onlyAttributes(tag: SaxesTagPlain, allowed: readonly string[]): void {
  for (const name of Object.keys(tag.attributes))
    if (!allowed.includes(name))
      throw new MarkupError(
        `<${tag.name}> does not take the attribute "${name}" (allowed: ${allowed.join(', ')})`,
      );
}

/**
 * saxes reads a bare "&" as the start of an entity and reports the damage only at the end of
 * the document; name the real fault and where it is instead.
 */
function findBareAmpersand(msg: string): string | undefined {
  // Only asked once saxes failed, so "&" inside CDATA or comments of a valid message is fine.
  const match = /&(?!(?:[A-Za-z_][\w.-]*|#\d+|#x[\dA-Fa-f]+);)/.exec(msg);
  if (!match) return undefined;
  const before = msg.slice(0, match.index).split('\n');
  const column = (before.at(-1)?.length ?? 0) + 1;
  return `malformed XML at line ${before.length}, column ${column}: "&" must be written as &amp;`;
}

/**
 * Parses a legacy `Msg` strictly as XML content (wrapped in a root element): malformed XML and
 * any element other than <break time> and <prosody rate|pitch|volume> are refused with a message
 * that says why and where.
 */
export function parseSpeechMarkup(msg: string): ParsedMarkup {
  const parts: MarkupPart[] = [];
  const stack: Prosody[] = [DEFAULT_PROSODY];
  let openBreak = false;
  let rootOpened = false;
  let lastClosed = '';
  const parser = new SaxesParser<{ xmlns: false; position: true }>({
    xmlns: false,
    position: true,
  });
  const prefix = `<${ROOT}>`.length;

  const addText = (text: string) => {
    if (openBreak && text.trim() !== '') throw new MarkupError('<break> must be empty');
    const prosody = stack.at(-1) ?? DEFAULT_PROSODY;
    const last = parts.at(-1);
    if (last?.kind === 'text' && last.prosody === prosody)
      parts[parts.length - 1] = { ...last, text: last.text + text };
    else parts.push({ kind: 'text', text, prosody });
  };

  parser.on('opentag', (tag) => {
    if (!rootOpened) {
      rootOpened = true; // our wrapper, not the caller's
      return;
    }
    if (openBreak) throw new MarkupError('<break> must be empty');
    if (tag.name === 'break') {
      onlyAttributes(tag, ['time']);
      parts.push({ kind: 'break', ms: breakMs(tag.attributes.time) });
      openBreak = true;
    } else if (tag.name === 'prosody') {
      onlyAttributes(tag, ['rate', 'pitch', 'volume']);
      if (stack.length > MAX_DEPTH)
        throw new MarkupError(`<prosody> nests deeper than ${MAX_DEPTH}`);
      const enclosing = stack.at(-1) ?? DEFAULT_PROSODY;
      const { rate, pitch, volume } = tag.attributes;
      stack.push({
        rate: rate === undefined ? enclosing.rate : prosodyValue('rate', rate, enclosing.rate),
        pitch:
          pitch === undefined ? enclosing.pitch : prosodyValue('pitch', pitch, enclosing.pitch),
        volume:
          volume === undefined
            ? enclosing.volume
            : prosodyValue('volume', volume, enclosing.volume),
      });
    } else {
      throw new MarkupError(`unsupported element <${tag.name}>: ${ALLOWED}`);
    }
  });
  parser.on('closetag', (tag) => {
    lastClosed = tag.name;
    if (tag.name === 'break') openBreak = false;
    else if (tag.name === 'prosody') stack.pop();
  });
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('processinginstruction', (pi) => {
    throw new MarkupError(`processing instruction <?${pi.target}?> is not allowed: ${ALLOWED}`);
  });
  parser.on('doctype', () => {
    throw new MarkupError(`a DOCTYPE is not allowed: ${ALLOWED}`);
  });
  parser.on('error', (err) => {
    // saxes prefixes "line:column: "; report the position in the caller's text, not ours.
    const ampersand = findBareAmpersand(msg);
    if (ampersand) throw new MarkupError(ampersand);
    let reason = err.message.replace(/^\d+:\d+: /, '');
    // saxes has just closed the element that a closing tag skipped over.
    if (reason === 'unexpected close tag.') {
      reason = `<${lastClosed}> is not closed`;
      if (parser.position > prefix + msg.length)
        throw new MarkupError(`malformed XML at the end of the message: ${reason}`);
    }
    const column = parser.line === 1 ? parser.column - prefix : parser.column;
    throw new MarkupError(`malformed XML at line ${parser.line}, column ${column}: ${reason}`);
  });

  try {
    parser.write(`<${ROOT}>${msg}</${ROOT}>`).close();
  } catch (err) {
    if (err instanceof MarkupError) return { ok: false, error: err.message };
    throw err;
  }
  if (!parts.some((p) => (p.kind === 'text' ? p.text.trim() !== '' : p.ms > 0)))
    return { ok: false, error: 'the message has nothing to say: no text and no pause' };
  return { ok: true, markup: { parts } };
}
