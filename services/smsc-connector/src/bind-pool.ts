import { ShuttingDownError, whenAborted } from './abortable-sleep.js';
import type { SmppBind } from './smpp-bind.js';

/**
 * Round-robin over the binds that are bound right now. With none bound, callers wait — an SMSC
 * outage is back-pressure on the consumer, never a reason to fail or dead-letter a message.
 */
export function createBindPool(binds: readonly SmppBind[]) {
  let next = 0;
  let waiters: (() => void)[] = [];

  return {
    binds,
    anyBound: () => binds.some((bind) => bind.isBound),
    /** Call on every bind state change: wakes whoever waits for a bound bind. */
    stateChanged(): void {
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
    },
    async acquire(signal: AbortSignal): Promise<SmppBind> {
      for (;;) {
        if (signal.aborted) throw new ShuttingDownError();
        for (let i = 0; i < binds.length; i++) {
          const bind = binds[(next + i) % binds.length];
          if (bind?.isBound) {
            next = (next + i + 1) % binds.length;
            return bind;
          }
        }
        await new Promise<void>((resolve) => {
          const forget = whenAborted(signal, resolve);
          waiters.push(() => {
            forget();
            resolve();
          });
        });
      }
    },
  };
}

export type BindPool = ReturnType<typeof createBindPool>;
