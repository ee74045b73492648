import { MAX_BREAK_MS, type SpeechMarkup } from './markup.js';
import { normaliseDecimalPoint } from './numbers.js';

/** SSML for plain text in a canonical language: nothing in it is obeyed. */
export function plainTextSsml(text: string, language: string): string {
  return escapeText(normaliseDecimalPoint(text, language));
}

/**
 * The engine always reads its input as SSML with [[phoneme]] input enabled (the WebAssembly
 * build's fixed flags), so plain text is escaped: markup characters become entities, and "[["
 * is broken up, so neither tags nor phoneme codes in a message are ever obeyed.
 */
export function escapeText(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll(/\[(?=\[)/g, '[ ');
}

const percent = (value: number, min: number, max: number) =>
  `${Math.round(Math.min(max, Math.max(min, value)))}%`;

/**
 * SSML for a parsed legacy message, re-serialised from the validated structure alone: only
 * <break> and <prosody> with numeric values reach the engine, whatever the caller wrote.
 */
export function markupSsml(markup: SpeechMarkup, language: string): string {
  return markup.parts
    .map((part) =>
      part.kind === 'break'
        ? `<break time="${Math.round(Math.min(MAX_BREAK_MS, Math.max(0, part.ms)))}ms"/>`
        : `<prosody rate="${percent(part.prosody.rate, 50, 200)}" pitch="${percent(part.prosody.pitch, 50, 200)}" volume="${percent(part.prosody.volume, 0, 200)}">${plainTextSsml(part.text, language)}</prosody>`,
    )
    .join('');
}
