// Sends frame n at start + n × interval on the monotonic clock. Each wake-up re-reads the clock and
// sends every frame already due, so a late timer never shifts the frames after it (no setInterval
// drift); lateness per frame is kept for the jitter report. Resolves when the last frame's slot
// has ended (or at once when stopped).
import { performance } from 'node:perf_hooks';

export interface PaceResult {
  framesSent: number;
  /** How late each frame left, in ms, against its scheduled time. */
  latenessMs: number[];
}

export function paceFrames(
  frameCount: number,
  intervalMs: number,
  sendFrame: (index: number) => void,
  stopped: () => boolean,
): Promise<PaceResult> {
  const start = performance.now();
  const latenessMs: number[] = [];
  let next = 0;
  return new Promise((resolve) => {
    const tick = () => {
      let now = performance.now();
      while (next < frameCount && !stopped() && now >= start + next * intervalMs) {
        sendFrame(next);
        latenessMs.push(now - (start + next * intervalMs));
        next++;
        now = performance.now();
      }
      if (stopped()) {
        resolve({ framesSent: next, latenessMs });
        return;
      }
      if (next >= frameCount) {
        // The last frame is heard until the end of its slot: resolve then, not when it leaves.
        const end = start + frameCount * intervalMs;
        // Node timers may fire up to a millisecond early against performance.now(): re-arm.
        const finish = () => {
          const left = end - performance.now();
          if (left > 0) setTimeout(finish, Math.ceil(left));
          else resolve({ framesSent: next, latenessMs });
        };
        finish();
        return;
      }
      setTimeout(tick, Math.max(0, start + next * intervalMs - now));
    };
    tick();
  });
}

/** p50/p99/max of a list of lateness samples, in ms with 0.01 ms resolution. */
export function summarizeLateness(samples: readonly number[]): {
  p50: number;
  p99: number;
  max: number;
} {
  if (samples.length === 0) return { p50: 0, p99: 0, max: 0 };
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const round = (v: number) => Math.round(v * 100) / 100;
  return { p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted[sorted.length - 1] ?? 0) };
}
