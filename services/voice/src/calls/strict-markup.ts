import { SaxesParser } from 'saxes';
import type { MarkupCheck } from './ports.js';

/**
 * The stand-in of @msg/speech's parseSpeechMarkup until the lead wires it: a strict XML check
 * of the legacy `Msg` (wrapped in one root element, so plain text and mixed content are
 * documents), answering the text itself as the markup. eSpeak accepts broken markup; the
 * interface refuses it (spec 2.6, 7.5 rule 3).
 */
export function strictMarkupCheck(msg: string): MarkupCheck {
  const parser = new SaxesParser();
  let error: string | undefined;
  parser.on('error', (err) => {
    error ??= err.message;
  });
  try {
    parser.write(`<speak>${msg}</speak>`).close();
  } catch (err) {
    error ??= (err as Error).message;
  }
  return error === undefined ? { ok: true, markup: msg } : { ok: false, error };
}
