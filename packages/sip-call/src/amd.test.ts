import { describe, expect, it } from 'vitest';
import { beep, overTheLine, silence, voice, words } from '../test/synthetic-audio.js';
import { type AmdEvent, AnsweringMachineDetector, DEFAULT_AMD_PARAMETERS } from './amd.js';

const p = DEFAULT_AMD_PARAMETERS;
const FRAME = 20;

function listen(samples: number[], chunk = 160, parameters = {}): AmdEvent[] {
  const detector = new AnsweringMachineDetector(parameters);
  const heard = overTheLine(samples);
  const events: AmdEvent[] = [];
  for (let at = 0; at < heard.length; at += chunk)
    events.push(...detector.push(heard.subarray(at, at + chunk)));
  return events;
}

const ms = (samples: number[]) => (samples.length / 8000) * 1000;

describe('answering-machine detection', () => {
  it('when the callee stays silent, then it is a machine once the initial silence is exceeded', () => {
    const events = listen(silence(p.initialSilenceMs + 1500));
    expect(events[0]).toEqual({
      kind: 'decision',
      answeredBy: 'machine',
      cause: 'initial-silence',
      atMs: p.initialSilenceMs,
    });
  });

  it('when the callee says a short "hello?" and waits, then it is a human after the after-greeting silence', () => {
    const lead = silence(300);
    const hello = voice(450);
    const events = listen([...lead, ...hello, ...silence(2000)]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'decision',
      answeredBy: 'human',
      cause: 'after-greeting-silence',
    });
    const expectedAt = ms(lead) + ms(hello) + p.afterGreetingSilenceMs;
    expect(Math.abs((events[0]?.atMs ?? 0) - expectedAt)).toBeLessThanOrEqual(FRAME);
  });

  it('when the callee says two short words ("hello, yes?"), then it is still a human', () => {
    const events = listen([...silence(200), ...words([350, 300], 200), ...silence(1500)]);
    expect(events[0]).toMatchObject({ answeredBy: 'human' });
  });

  it('when clicks shorter than a word are all that is heard, then they do not count as a greeting', () => {
    const clicks = [0, 1, 2, 3, 4].flatMap(() => [
      ...silence(400),
      ...voice(p.minWordLengthMs - 40),
    ]);
    const events = listen([...clicks, ...silence(2000)]);
    expect(events[0]).toMatchObject({ answeredBy: 'machine', cause: 'initial-silence' });
  });

  it('when a long greeting ends with a beep, then it is a machine and the greeting ends after the beep', () => {
    const greeting = words([400, 300, 450, 350, 500, 300, 400], 150);
    const pause = silence(p.greetingEndSilenceMs - 300); // shorter than the end-of-greeting silence
    const tone = beep(600);
    const samples = [...silence(250), ...greeting, ...pause, ...tone, ...silence(3000)];
    const events = listen(samples);
    expect(events).toHaveLength(2);
    const [decision, ended] = events;
    expect(decision).toMatchObject({ kind: 'decision', answeredBy: 'machine' });
    expect(['max-words', 'long-greeting']).toContain(
      decision?.kind === 'decision' && decision.cause,
    );
    // Decided while the greeting is still playing, not after it.
    expect(decision?.atMs).toBeLessThan(250 + ms(greeting));
    const beepEnds = 250 + ms(greeting) + ms(pause) + ms(tone);
    expect(ended?.kind).toBe('greeting-ended');
    expect(Math.abs((ended?.atMs ?? 0) - (beepEnds + p.greetingEndSilenceMs))).toBeLessThanOrEqual(
      FRAME,
    );
  });

  it('when one word goes on past the maximum word length, then it is a machine', () => {
    const events = listen([...silence(200), ...voice(p.maxWordLengthMs + 500)], 160, {
      greetingMs: 60_000,
      totalAnalysisMs: 60_000,
    });
    expect(events[0]).toMatchObject({ answeredBy: 'machine', cause: 'max-word-length' });
  });

  it('when nothing decides within the total analysis time, then the answer is unknown', () => {
    const chatter = words(Array(40).fill(200), 120);
    const events = listen(chatter, 160, {
      maxWords: 1000,
      greetingMs: 60_000,
      afterGreetingSilenceMs: 5000,
    });
    expect(events[0]).toEqual({
      kind: 'decision',
      answeredBy: 'unknown',
      cause: 'too-long',
      atMs: p.totalAnalysisMs,
    });
  });

  it('when the audio arrives in odd-sized chunks, then the events are the same as frame by frame', () => {
    const samples = [...silence(300), ...words([400, 300, 450, 350], 150), ...silence(1500)];
    expect(listen(samples, 7)).toEqual(listen(samples, 160));
  });
});
