import type { Logger } from '@msg/logger';

/** One thing to close on shutdown, e.g. `{ name: 'http', close: server.close }`. */
export interface ShutdownStep {
  name: string;
  close(): Promise<void> | void;
}

export interface SigtermOptions {
  /** Default ['SIGTERM', 'SIGINT']. */
  signals?: NodeJS.Signals[];
  /** Give up and exit 1 after this long; default 30 s (below Kubernetes' default grace period). */
  timeoutMs?: number;
  /** Default process.exit; tests pass their own. */
  exit?: (code: number) => void;
}

export interface ShutdownHandle {
  /** Runs the sequence now (what a signal does); later calls return the same promise. */
  shutdown(reason: string): Promise<void>;
  /** Removes the signal listeners. */
  dispose(): void;
}

/** Ends the logger and waits (at most 2 s) until its transports have written everything. */
export async function flushLogger(logger: Logger): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 2_000);
    logger.once('finish', () => {
      clearTimeout(timer);
      resolve();
    });
    logger.end();
  });
}

/**
 * The shutdown sequence of a service's main.ts, run once on the first SIGTERM/SIGINT: the steps in
 * the order given (typically: the HTTP server — stop accepting, finish in-flight — then consumers,
 * which commit their offsets, then the outbox relay, then the database), then flush the logs, then
 * exit 0 (1 when a step failed or the whole took longer than timeoutMs). A failing step is logged
 * and the next still runs: a database left open is worse than an error line.
 */
export function onSigterm(
  steps: Array<ShutdownStep | (() => Promise<void> | void)>,
  logger: Logger,
  options: SigtermOptions = {},
): ShutdownHandle {
  const {
    signals = ['SIGTERM', 'SIGINT'],
    timeoutMs = 30_000,
    exit = (code: number) => process.exit(code),
  } = options;
  const named = steps.map((step, index) =>
    typeof step === 'function' ? { name: step.name || `step ${index + 1}`, close: step } : step,
  );
  let running: Promise<void> | undefined;

  async function sequence(reason: string): Promise<void> {
    logger.info('shutting down', { reason });
    let failed = false;
    const timer = setTimeout(() => {
      logger.error('shutdown timed out', { timeoutMs });
      exit(1);
    }, timeoutMs);
    for (const step of named) {
      try {
        await step.close();
        logger.info('closed', { step: step.name });
      } catch (error) {
        failed = true;
        logger.error('close failed', { step: step.name, error });
      }
    }
    clearTimeout(timer);
    logger.info('shutdown complete', { failed });
    await flushLogger(logger);
    exit(failed ? 1 : 0);
  }

  function shutdown(reason: string): Promise<void> {
    running ??= sequence(reason);
    return running;
  }
  const onSignal = (signal: NodeJS.Signals) => {
    void shutdown(signal);
  };
  for (const signal of signals) process.on(signal, onSignal);

  return {
    shutdown,
    dispose() {
      for (const signal of signals) process.off(signal, onSignal);
    },
  };
}
