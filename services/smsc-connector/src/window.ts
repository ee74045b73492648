/**
 * A counting semaphore: at most `size` submit_sm outstanding on one bind (the SMPP window).
 * Waiters are served in arrival order.
 */
export function createWindow(size: number) {
  let inUse = 0;
  const waiters: (() => void)[] = [];
  return {
    get inUse() {
      return inUse;
    },
    async acquire(): Promise<void> {
      if (inUse < size) {
        inUse++;
        return;
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    },
    release(): void {
      const next = waiters.shift();
      // The slot passes straight to the next waiter, so inUse stays the same.
      if (next) next();
      else inUse--;
    },
  };
}

export type SubmitWindow = ReturnType<typeof createWindow>;
