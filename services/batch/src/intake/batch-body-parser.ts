import {
  JSON_LIMITS,
  JsonRulesChecker,
  MalformedRequestError,
  utf8Check,
  ValidationError,
} from '@msg/http';
import { type ParsedTokenInfo, Tokenizer, TokenParser, TokenType } from '@streamparser/json';
import { HEADER_MEMBERS, type HeaderMember } from './header-rules.js';

export interface BatchBodyParserOptions {
  /** Called for every element of batch.recipients, in order, with its 0-based index. */
  onRecipient(value: unknown, index: number): void;
  /** Called for every other member of batch, once its value has been read. */
  onMember(member: HeaderMember, value: unknown): void;
}

interface Frame {
  kind: 'object' | 'array';
  /** The key of the member being read (objects). */
  key: string | undefined;
  expectingKey: boolean;
}

const KNOWN = new Set<string>(HEADER_MEMBERS);

/**
 * Streams the createBatch JSON body without ever holding the recipients: feed it bytes with
 * write(), then end(). Each recipient is handed to `onRecipient` as soon as its closing brace
 * arrives and dropped (@streamparser/json with the single path $.batch.recipients.* and
 * keepStack false). The other members of `batch` (a few small values) are assembled on the side
 * by a second token parser fed only their tokens, so the first one can drop everything else.
 *
 * Throws (from write or end): MalformedRequestError when the bytes are not UTF-8 JSON (the
 * tokenizer's words and position go to the log through the error's cause), ValidationError when
 * the shape is wrong (not an object, unknown member, recipients not an array) or the body breaks
 * the input rules every JSON body follows (@msg/http: a duplicate key, a lone surrogate or NUL in
 * any string) — as soon as it is seen.
 */
export class BatchBodyParser {
  private readonly tokenizer = new Tokenizer({ stringBufferSize: 0, numberBufferSize: 0 });
  private readonly recipients = new TokenParser({
    paths: ['$.batch.recipients.*'],
    keepStack: false,
  });
  private readonly frames: Frame[] = [];
  // The bounds of every JSON body but two: a batch lists up to 1,000,000 recipients (counted
  // against the account's limit by receive-batch) and is streamed, never held, so its entries
  // and values are bounded by the body limit; its depth and members keep the usual bound.
  private readonly rules = new JsonRulesChecker(['body'], {
    ...JSON_LIMITS,
    entries: Number.POSITIVE_INFINITY,
    values: Number.POSITIVE_INFINITY,
  });
  private readonly utf8 = utf8Check();
  private member: { key: HeaderMember; parser: TokenParser } | undefined;
  private readonly members = new Set<HeaderMember>();
  private offset = 0;
  private failure: unknown;
  private sawBatch = false;
  private recipientCount = 0;
  /** Whether `recipients` was present and an array. */
  sawRecipients = false;

  constructor(private readonly options: BatchBodyParserOptions) {
    this.recipients.onValue = ({ value, key }) => {
      if (typeof key !== 'number') {
        throw ValidationError.field(['body', 'batch', 'recipients'], 'type', 'must be an array');
      }
      this.recipientCount += 1;
      this.options.onRecipient(value, key);
    };
    this.recipients.onError = (err) => {
      throw err;
    };
    this.tokenizer.onToken = (token) => this.token(token);
    this.tokenizer.onError = (err) => {
      throw err;
    };
  }

  /** Feeds the next bytes; recipients completed by them are reported before it returns. */
  write(chunk: Uint8Array): void {
    if (this.failure) throw this.failure;
    try {
      this.utf8.write(chunk);
      this.tokenizer.write(chunk);
    } catch (err) {
      this.failure = this.translate(err);
      throw this.failure;
    }
  }

  /** The end of the body: checks the document is complete and returns the header members. */
  end(): { members: ReadonlySet<HeaderMember>; recipients: number } {
    if (this.failure) throw this.failure;
    try {
      this.utf8.end();
      if (!this.tokenizer.isEnded) this.tokenizer.end();
      if (!this.recipients.isEnded) this.recipients.end();
    } catch (err) {
      throw this.translate(err);
    }
    if (!this.sawBatch) {
      throw ValidationError.field(['body', 'batch'], 'missing', 'is required');
    }
    return { members: this.members, recipients: this.recipientCount };
  }

  private translate(err: unknown): unknown {
    if (err instanceof ValidationError || err instanceof MalformedRequestError) return err;
    const detail = err instanceof Error ? err.message : String(err);
    const refusal = /ended in mid-parsing|ended in the middle/i.test(detail)
      ? new MalformedRequestError('body is not valid JSON: it ends before the document does')
      : new MalformedRequestError('body is not valid JSON');
    // The tokenizer's words and the byte position are for the log, not the body.
    return Object.assign(refusal, { cause: new Error(`at byte ${this.offset}: ${detail}`) });
  }

  private token(info: ParsedTokenInfo): void {
    this.offset = info.offset;
    this.rules.token(info);
    this.recipients.write(info);
    this.track(info);
  }

  /** Follows the document's structure down to the members of `batch`. */
  private track(info: ParsedTokenInfo): void {
    const { token } = info;
    if (this.member) {
      this.member.parser.write(info);
      return;
    }
    const top = this.frames.at(-1);
    if (top?.kind === 'object' && top.expectingKey && token === TokenType.STRING) {
      top.key = info.value as string;
      top.expectingKey = false;
      return;
    }
    if (token === TokenType.COLON) return;
    if (token === TokenType.COMMA) {
      if (top?.kind === 'object') top.expectingKey = true;
      return;
    }
    if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) {
      this.frames.pop();
      return;
    }
    // A value starts at depth frames.length.
    const depth = this.frames.length;
    const opens = token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET;
    if (depth === 0) {
      if (token !== TokenType.LEFT_BRACE) {
        throw ValidationError.field(['body'], 'type', 'must be an object with member batch');
      }
    } else if (depth === 1) {
      const key = this.frames[0]?.key ?? '';
      if (key !== 'batch') {
        throw ValidationError.field(['body', key], 'additionalProperties', 'is not a known field');
      }
      if (token !== TokenType.LEFT_BRACE) {
        throw ValidationError.field(['body', 'batch'], 'type', 'must be an object');
      }
      this.sawBatch = true;
    } else if (depth === 2) {
      this.memberStarts(this.frames[1]?.key ?? '', info);
      if (this.member) return;
    }
    if (opens) {
      this.frames.push({
        kind: token === TokenType.LEFT_BRACE ? 'object' : 'array',
        key: undefined,
        expectingKey: token === TokenType.LEFT_BRACE,
      });
    }
  }

  private memberStarts(key: string, info: ParsedTokenInfo): void {
    if (key === 'recipients') {
      if (info.token !== TokenType.LEFT_BRACKET) {
        throw ValidationError.field(['body', 'batch', 'recipients'], 'type', 'must be an array');
      }
      this.sawRecipients = true;
      return;
    }
    if (!KNOWN.has(key)) {
      throw ValidationError.field(
        ['body', 'batch', key],
        'additionalProperties',
        'is not a known field',
      );
    }
    const member = key as HeaderMember;
    const parser = new TokenParser();
    parser.onValue = ({ value, stack }) => {
      if (stack.length > 0) return;
      this.members.add(member);
      this.options.onMember(member, value);
    };
    parser.onError = (err) => {
      throw err;
    };
    parser.onEnd = () => {
      this.member = undefined;
    };
    this.member = { key: member, parser };
    parser.write(info);
  }
}
