import alawmulaw from 'alawmulaw';
import wavefile from 'wavefile';

export const TELEPHONY_RATE = 8000;
/** One RTP packet of G.711 at 20 ms; audio is padded to whole packets. */
export const FRAME_SAMPLES = 160;
/** G.711 mu-law code of silence (zero amplitude). */
const MULAW_SILENCE = 0xff;

/**
 * G.711 mu-law at 8 kHz from 16-bit PCM: windowed-sinc resampling behind a low-pass filter
 * (wavefile; its IIR filter is half the cost of its FIR one), so content above 4 kHz is removed rather than folded back as aliasing; then padded
 * with silence to whole 20 ms frames.
 */
export function toTelephonyMulaw(pcm: Int16Array, sampleRate: number): Buffer {
  let samples = pcm;
  if (pcm.length > 0 && sampleRate !== TELEPHONY_RATE) {
    const wav = new wavefile.WaveFile();
    wav.fromScratch(1, sampleRate, '16', pcm);
    wav.toSampleRate(TELEPHONY_RATE, { method: 'sinc', LPF: true });
    samples = Int16Array.from(wav.getSamples(), (v) => Math.max(-32768, Math.min(32767, v)));
  }
  const frames = Math.ceil(samples.length / FRAME_SAMPLES);
  const out = Buffer.alloc(frames * FRAME_SAMPLES, MULAW_SILENCE);
  out.set(alawmulaw.mulaw.encode(samples));
  return out;
}
