import { describe, expect, it } from 'vitest';
import { parseSpeechMarkup, type SpeechMarkup } from './markup.js';
import { escapeText, markupSsml, plainTextSsml } from './ssml.js';

function parsed(msg: string): SpeechMarkup {
  const result = parseSpeechMarkup(msg);
  if (!result.ok) throw new Error(`refused: ${result.error}`);
  return result.markup;
}

describe('parseSpeechMarkup', () => {
  it.each([
    ['plain text', 'Hello world', [{ kind: 'text', text: 'Hello world' }]],
    [
      'a break in ms',
      'a<break time="500ms"/>b',
      [{ kind: 'text' }, { kind: 'break', ms: 500 }, { kind: 'text' }],
    ],
    ['a break in s', '<break time="1.5s"/>go', [{ kind: 'break', ms: 1500 }, { kind: 'text' }]],
    [
      'the longest break',
      '<break time="10s"></break>x',
      [{ kind: 'break', ms: 10_000 }, { kind: 'text' }],
    ],
    ['XML entities', 'Tom &amp; Jerry &lt;3 &#65;', [{ kind: 'text', text: 'Tom & Jerry <3 A' }]],
    ['a CDATA section', '<![CDATA[a & <b>]]>', [{ kind: 'text', text: 'a & <b>' }]],
  ])('when %s, then it is accepted', (_, msg, parts) => {
    expect(parsed(msg).parts).toMatchObject(parts);
  });

  it.each([
    ['rate="slow"', { rate: 75, pitch: 100, volume: 100 }],
    ['rate="150%"', { rate: 150, pitch: 100, volume: 100 }],
    ['rate="-20%" pitch="high"', { rate: 80, pitch: 125, volume: 100 }],
    ['pitch="+10%" volume="soft"', { rate: 100, pitch: 110, volume: 50 }],
    ['volume="-6dB"', { rate: 100, pitch: 100, volume: 50.1 }],
    ['volume="x-loud" rate="default"', { rate: 100, pitch: 100, volume: 200 }],
  ])('when <prosody %s>, then the text carries that prosody', (attributes, prosody) => {
    expect(parsed(`<prosody ${attributes}>hi</prosody>`).parts).toEqual([
      { kind: 'text', text: 'hi', prosody },
    ]);
  });

  it('when prosody nests, then a relative value applies to the enclosing one', () => {
    const { parts } = parsed(
      '<prosody rate="150%">a <prosody rate="+20%" pitch="low">b</prosody></prosody> c',
    );
    expect(parts).toEqual([
      { kind: 'text', text: 'a ', prosody: { rate: 150, pitch: 100, volume: 100 } },
      { kind: 'text', text: 'b', prosody: { rate: 180, pitch: 80, volume: 100 } },
      { kind: 'text', text: ' c', prosody: { rate: 100, pitch: 100, volume: 100 } },
    ]);
  });

  it.each([
    [
      'an unclosed tag',
      'Hello <prosody rate="slow">world',
      /malformed XML at the end of the message: <prosody> is not closed/,
    ],
    [
      'a bare ampersand',
      'Tom & Jerry',
      /malformed XML at line 1, column 5: "&" must be written as &amp;/,
    ],
    ['a broken tag on line 2', 'line one\nline <b', /malformed XML at line 2, column 8/],
    ['an unknown entity', 'caf&eacute;', /malformed XML/],
    ['mismatched tags', '<prosody rate="slow">a</break>', /malformed XML/],
    ['an attribute without quotes', '<break time=1s/>', /malformed XML/],
    ['a stray closing root', '</speech>oops', /malformed XML/],
    ['another element', 'x <emphasis>y</emphasis>', /unsupported element <emphasis>: only <break/],
    [
      'an SSML audio element',
      '<audio src="http://127.0.0.1/x.wav"/>',
      /unsupported element <audio>/,
    ],
    ['a speak root', '<speak>hi</speak>', /unsupported element <speak>/],
    ['a processing instruction', 'a <?php echo 1 ?> b', /processing instruction/],
    ['a break without time', 'a <break/> b', /<break> needs a time attribute/],
    ['a break over 10 s', 'a <break time="11s"/> b', /<break time="11s"> is not accepted/],
    ['a negative break', 'a <break time="-1s"/> b', /is not accepted/],
    [
      'a break with a strength',
      'a <break time="1s" strength="weak"/> b',
      /does not take the attribute "strength"/,
    ],
    ['a break with content', '<break time="1s">text</break>', /<break> must be empty/],
    [
      'a rate over 200%',
      '<prosody rate="300%">x</prosody>',
      /<prosody rate="300%"> is not accepted/,
    ],
    ['a rate as a bare number', '<prosody rate="2">x</prosody>', /is not accepted/],
    [
      'a pitch in Hz',
      '<prosody pitch="200Hz">x</prosody>',
      /<prosody pitch="200Hz"> is not accepted/,
    ],
    [
      'a volume in %',
      '<prosody volume="+50%">x</prosody>',
      /<prosody volume="\+50%"> is not accepted/,
    ],
    [
      'a prosody duration',
      '<prosody duration="2s">x</prosody>',
      /does not take the attribute "duration"/,
    ],
    ['nothing to say', '   ', /nothing to say/],
  ])('when %s, then it is refused with a clear message', (_, msg, error) => {
    const result = parseSpeechMarkup(msg);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });

  it('when prosody nests deeper than 8, then it is refused', () => {
    const msg = `${'<prosody rate="+1%">'.repeat(9)}x${'</prosody>'.repeat(9)}`;
    expect(parseSpeechMarkup(msg)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/nests deeper/),
    });
  });
});

describe('SSML given to the engine', () => {
  it('when plain text holds markup or phoneme codes, then they are escaped, not obeyed', () => {
    expect(escapeText('a <break time="3s"/> & [[h@l]] b')).toBe(
      'a &lt;break time="3s"/&gt; &amp; [ [h@l]] b',
    );
  });

  it('when markup was parsed, then only break and numeric prosody are re-serialised', () => {
    const ssml = markupSsml(
      parsed('<prosody rate="slow">a &lt;b&gt;</prosody><break time="2s"/>c'),
      'en-GB',
    );
    expect(ssml).toBe(
      '<prosody rate="75%" pitch="100%" volume="100%">a &lt;b&gt;</prosody><break time="2000ms"/>' +
        '<prosody rate="100%" pitch="100%" volume="100%">c</prosody>',
    );
  });

  it('when a decimal point is written in a language eSpeak NG reads only the comma for, then it becomes a comma', () => {
    expect(plainTextSsml('12.75 and 1.2.3 and end. 5', 'nl')).toBe('12,75 and 1,2,3 and end. 5');
    expect(plainTextSsml('12.75', 'en-GB')).toBe('12.75');
    expect(markupSsml(parsed('<break time="1s"/>3.5'), 'pl')).toContain('>3,5</prosody>');
  });
});
