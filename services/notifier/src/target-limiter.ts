/**
 * In-flight request slots of one replica: at most `perTarget` to one target (URL origin), so a
 * slow receiver cannot take every slot, and at most `global` in total.
 */
export function createTargetLimiter({ perTarget, global }: { perTarget: number; global: number }) {
  const inFlight = new Map<string, number>();
  let total = 0;

  return {
    /** Slots left overall. */
    free: () => global - total,
    /** Targets with no slot left. */
    saturated: () => [...inFlight].filter(([, n]) => n >= perTarget).map(([target]) => target),
    tryAcquire(target: string): boolean {
      const used = inFlight.get(target) ?? 0;
      if (total >= global || used >= perTarget) return false;
      inFlight.set(target, used + 1);
      total += 1;
      return true;
    },
    release(target: string): void {
      const used = inFlight.get(target) ?? 0;
      if (used <= 1) inFlight.delete(target);
      else inFlight.set(target, used - 1);
      total = Math.max(0, total - 1);
    },
  };
}

export type TargetLimiter = ReturnType<typeof createTargetLimiter>;
