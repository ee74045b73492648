// Answering-machine detection from the callee's audio energy, after Asterisk's app_amd: a person
// answers with a short word ("hello?") and then waits; a machine starts with a long greeting of
// several words (and ends it with a beep). Each 20 ms frame is voice or silence by its mean
// absolute amplitude; words are runs of voice separated by silence.

export interface AmdParameters {
  /** Silence before any voice longer than this: machine (Asterisk initial_silence). */
  initialSilenceMs: number;
  /** Voice in the greeting longer than this: machine (Asterisk greeting). */
  greetingMs: number;
  /** Silence after the first words longer than this: human (Asterisk after_greeting_silence). */
  afterGreetingSilenceMs: number;
  /** No decision after this much audio: unknown (Asterisk total_analysis_time). */
  totalAnalysisMs: number;
  /** Voice shorter than this is noise, not a word (Asterisk min_word_length). */
  minWordLengthMs: number;
  /** Silence that separates two words (Asterisk between_words_silence). */
  betweenWordsSilenceMs: number;
  /** This many words or more: machine (Asterisk maximum_number_of_words). */
  maxWords: number;
  /** One word longer than this: machine (Asterisk maximum_word_length). */
  maxWordLengthMs: number;
  /** Mean absolute 16-bit amplitude under which a frame is silence (Asterisk silence_threshold). */
  silenceThreshold: number;
  /** After a machine decision: silence that marks the end of greeting and beep. */
  greetingEndSilenceMs: number;
  /** After a machine decision: play anyway after this long without such a silence. */
  maxGreetingWaitMs: number;
}

/** Asterisk's amd.conf defaults (maximum_number_of_words 3, as in current Asterisk). */
export const DEFAULT_AMD_PARAMETERS: Readonly<AmdParameters> = Object.freeze({
  initialSilenceMs: 2500,
  greetingMs: 1500,
  afterGreetingSilenceMs: 800,
  totalAnalysisMs: 5000,
  minWordLengthMs: 100,
  betweenWordsSilenceMs: 50,
  maxWords: 3,
  maxWordLengthMs: 5000,
  silenceThreshold: 256,
  greetingEndSilenceMs: 1000,
  maxGreetingWaitMs: 30_000,
});

export type AmdCause =
  | 'initial-silence'
  | 'long-greeting'
  | 'max-words'
  | 'max-word-length'
  | 'after-greeting-silence'
  | 'too-long';

export type AmdEvent =
  | { kind: 'decision'; answeredBy: 'human' | 'machine' | 'unknown'; cause: AmdCause; atMs: number }
  /** Machine only: the greeting (and its beep) is over, playing may start. */
  | { kind: 'greeting-ended'; atMs: number };

/**
 * Feed it the callee's audio as it arrives (any chunk size; it works in 20 ms frames of 8 kHz
 * samples). It returns the events that chunk caused: first a decision, then for a machine the end
 * of its greeting.
 */
export class AnsweringMachineDetector {
  private readonly p: AmdParameters;
  private pending: number[] = [];
  private elapsedMs = 0;
  private silenceMs = 0;
  private voiceMs = 0; // voice since the greeting began
  private wordVoiceMs = 0; // consecutive voice of the current word
  private words = 0;
  private inWord = false;
  private inGreeting = false;
  private decided: AmdEvent | undefined;
  private greetingOver = false;

  constructor(parameters: Partial<AmdParameters> = {}) {
    this.p = { ...DEFAULT_AMD_PARAMETERS, ...parameters };
  }

  get decision(): AmdEvent | undefined {
    return this.decided;
  }

  get finished(): boolean {
    return (
      this.decided?.kind === 'decision' &&
      (this.decided.answeredBy !== 'machine' || this.greetingOver)
    );
  }

  push(samples: ArrayLike<number>): AmdEvent[] {
    const events: AmdEvent[] = [];
    for (let i = 0; i < samples.length; i++) {
      this.pending.push(samples[i] ?? 0);
      if (this.pending.length === 160) {
        const frame = this.pending;
        this.pending = [];
        const event = this.frame(frame);
        if (event) events.push(event);
      }
    }
    return events;
  }

  private frame(samples: number[]): AmdEvent | undefined {
    let sum = 0;
    for (const s of samples) sum += Math.abs(s);
    const silent = sum / samples.length < this.p.silenceThreshold;
    this.elapsedMs += 20;
    if (this.finished) return undefined;
    if (this.decided) return this.afterMachineDecision(silent);
    return this.analyse(silent);
  }

  private afterMachineDecision(silent: boolean): AmdEvent | undefined {
    this.silenceMs = silent ? this.silenceMs + 20 : 0;
    const start = this.decided?.atMs ?? 0;
    if (
      this.silenceMs >= this.p.greetingEndSilenceMs ||
      this.elapsedMs - start >= this.p.maxGreetingWaitMs
    ) {
      this.greetingOver = true;
      return { kind: 'greeting-ended', atMs: this.elapsedMs };
    }
    return undefined;
  }

  private analyse(silent: boolean): AmdEvent | undefined {
    if (silent) {
      this.silenceMs += 20;
      this.wordVoiceMs = 0;
      if (!this.inGreeting && this.silenceMs >= this.p.initialSilenceMs)
        return this.decide('machine', 'initial-silence');
      if (this.inGreeting && this.silenceMs >= this.p.afterGreetingSilenceMs)
        return this.decide('human', 'after-greeting-silence');
      if (this.silenceMs >= this.p.betweenWordsSilenceMs) this.inWord = false;
    } else {
      this.wordVoiceMs += 20;
      if (this.wordVoiceMs >= this.p.minWordLengthMs) {
        // A word only counts once it is long enough, so a click does not end the silence.
        if (!this.inWord) {
          this.inWord = true;
          this.words++;
          this.voiceMs += this.wordVoiceMs - 20; // the start of the word, counted now
        }
        this.silenceMs = 0;
        this.inGreeting = true;
        this.voiceMs += 20;
      }
      if (this.words >= this.p.maxWords) return this.decide('machine', 'max-words');
      if (this.wordVoiceMs >= this.p.maxWordLengthMs)
        return this.decide('machine', 'max-word-length');
      if (this.inGreeting && this.voiceMs >= this.p.greetingMs)
        return this.decide('machine', 'long-greeting');
    }
    if (this.elapsedMs >= this.p.totalAnalysisMs) return this.decide('unknown', 'too-long');
    return undefined;
  }

  private decide(answeredBy: 'human' | 'machine' | 'unknown', cause: AmdCause): AmdEvent {
    this.decided = { kind: 'decision', answeredBy, cause, atMs: this.elapsedMs };
    this.silenceMs = 0;
    return this.decided;
  }
}
