import { type ParsedTokenInfo, Tokenizer, TokenType } from '@streamparser/json';
import { MalformedRequestError, ValidationError } from './errors.js';

/**
 * The input rules every JSON body of every interface follows (README "Input rules"):
 * - the bytes are UTF-8 (invalid bytes are a malformed body, never silently replaced);
 * - every string, key or value, is well-formed Unicode: no lone surrogate (`"\ud800"`), which no
 *   UTF-8 store, Kafka record or carrier can carry, and no NUL (U+0000), which Postgres text
 *   refuses and which no SMS needs (a client meaning GSM-7 `@` writes `@`);
 * - an object names each key once: a duplicate is refused rather than last-one-wins, so a message
 *   is never sent with a value the client did not mean;
 * - the document is bounded (JSON_LIMITS): nesting depth, members per object, entries per array
 *   and values in all. No interface needs more than a few levels; without a bound, a 240 KB body
 *   of 40,000 nested objects cost every later walk (the schema validator's, ours) quadratic time
 *   and froze the process for the other requests. The bound is checked on the token stream,
 *   before anything walks the parsed value, so such a body costs one linear pass and a 400.
 * Broken rules are 400s naming the field path; the interface's error format renders them.
 */

/** The bounds of a JSON document (README "Input rules"). */
export interface JsonLimits {
  /** Objects and arrays nested inside one another, the outermost counting 1. */
  depth: number;
  /** Members of one object. */
  members: number;
  /** Entries of one array. */
  entries: number;
  /** Values in the whole document: every object, array, string, number, boolean and null. */
  values: number;
}

export const JSON_LIMITS: JsonLimits = {
  depth: 32,
  members: 1_000,
  entries: 10_000,
  values: 100_000,
};

/** Why `text` breaks the text rule, or undefined when it is valid. */
export function textProblem(text: string): string | undefined {
  if (/\p{Surrogate}/u.test(text))
    return 'must be well-formed Unicode text (it holds a lone surrogate)';
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  return undefined;
}

/** Throws a ValidationError at `loc` when `text` breaks the text rule. */
export function checkText(text: string, loc: string[]): void {
  const problem = textProblem(text);
  if (problem) throw ValidationError.field(loc, 'text', problem);
}

/** Every string (keys and values) of an already-parsed value, e.g. a form body. */
export function checkTextDeep(value: unknown, loc: string[]): void {
  if (typeof value === 'string') {
    checkText(value, loc);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  // Arrays too: their entries are keyed '0', '1'..., the path a client reads.
  for (const [key, item] of Object.entries(value)) {
    checkText(key, [...loc, key]);
    checkTextDeep(item, [...loc, key]);
  }
}

/** Streaming UTF-8 check: write() each chunk, then end(); throws a MalformedRequestError. */
export function utf8Check(): { write(chunk: Uint8Array): void; end(): void } {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (chunk?: Uint8Array) => {
    try {
      decoder.decode(chunk, { stream: chunk !== undefined });
    } catch {
      throw new MalformedRequestError('body is not valid UTF-8');
    }
  };
  return { write: (chunk) => decode(chunk), end: () => decode() };
}

interface Frame {
  keys: Set<string> | undefined;
  /** Members (objects) or entries (arrays) begun so far. */
  count: number;
  /** The current member's key (objects) or element index (arrays). */
  at: string;
  index: number;
  expectingKey: boolean;
}

/**
 * Follows the tokens of @streamparser/json's Tokenizer and throws a ValidationError at the first
 * duplicate key, string breaking the text rule or bound exceeded, naming its path under `root`
 * (e.g. ['body']). Each token costs at most the depth bound, so a document costs linear time.
 * Syntax errors are not its business: the parser that builds the value reports them.
 */
export class JsonRulesChecker {
  private readonly frames: Frame[] = [];
  private values = 0;

  constructor(
    private readonly root: string[] = ['body'],
    private readonly limits: JsonLimits = JSON_LIMITS,
  ) {}

  token({ token, value }: Pick<ParsedTokenInfo, 'token' | 'value'>): void {
    const top = this.frames.at(-1);
    if (token === TokenType.STRING && top?.keys && top.expectingKey) {
      const key = value as string;
      const loc = [...this.path().slice(0, -1), key];
      checkText(key, loc);
      if (top.keys.has(key))
        throw ValidationError.field(loc, 'duplicate', 'appears more than once');
      if (++top.count > this.limits.members) {
        throw ValidationError.field(
          this.path().slice(0, -1),
          'maxProperties',
          `must have at most ${this.limits.members.toLocaleString('en')} members`,
        );
      }
      top.keys.add(key);
      top.at = key;
      top.expectingKey = false;
      return;
    }
    if (token === TokenType.COLON) return;
    if (token === TokenType.COMMA) {
      if (top?.keys) top.expectingKey = true;
      else if (top) top.at = String(++top.index);
      return;
    }
    if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) {
      this.frames.pop();
      return;
    }
    // Any other token begins a value.
    this.countValue(top);
    if (token === TokenType.STRING) checkText(value as string, this.path());
    if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) {
      if (this.frames.length >= this.limits.depth) {
        throw ValidationError.field(
          this.path(),
          'depth',
          `must not nest objects and arrays more than ${this.limits.depth} levels deep`,
        );
      }
      const isObject = token === TokenType.LEFT_BRACE;
      this.frames.push({
        keys: isObject ? new Set() : undefined,
        count: 0,
        at: isObject ? '' : '0',
        index: 0,
        expectingKey: isObject,
      });
    }
  }

  private countValue(parent: Frame | undefined): void {
    if (++this.values > this.limits.values) {
      throw ValidationError.field(
        this.root,
        'size',
        `must hold at most ${this.limits.values.toLocaleString('en')} values`,
      );
    }
    if (parent && !parent.keys && ++parent.count > this.limits.entries) {
      throw ValidationError.field(
        this.path().slice(0, -1),
        'maxItems',
        `must have at most ${this.limits.entries.toLocaleString('en')} entries`,
      );
    }
  }

  private path(): string[] {
    return [...this.root, ...this.frames.map((frame) => frame.at)];
  }
}

/**
 * Checks a whole JSON body (bytes as received, after inflating) against the input rules. Syntax
 * errors are left to JSON.parse, which runs next and reports them.
 */
export function checkJsonBody(bytes: Uint8Array): void {
  const utf8 = utf8Check();
  utf8.write(bytes);
  utf8.end();
  const checker = new JsonRulesChecker();
  const tokenizer = new Tokenizer();
  tokenizer.onToken = (info) => checker.token(info);
  tokenizer.onError = (err) => {
    throw err;
  };
  try {
    tokenizer.write(bytes);
    if (!tokenizer.isEnded) tokenizer.end();
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    // Not JSON: JSON.parse says so in the interface's words.
  }
}
