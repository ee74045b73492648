import { describe, expect, it } from 'vitest';
import { fakeBind } from '../test/support.js';
import { ShuttingDownError } from './abortable-sleep.js';
import { createBindPool } from './bind-pool.js';
import { createWindow } from './window.js';

describe('createBindPool', () => {
  it('when several binds are bound, then acquire goes round-robin over them and skips unbound ones', async () => {
    const pool = createBindPool([
      fakeBind('a', { isBound: true }),
      fakeBind('b', { isBound: false }),
      fakeBind('c', { isBound: true }),
    ]);
    const signal = new AbortController().signal;
    const names = [];
    for (let i = 0; i < 4; i++) names.push((await pool.acquire(signal)).name);
    expect(names).toEqual(['a', 'c', 'a', 'c']);
  });

  it('when no bind is bound, then acquire waits until one binds', async () => {
    const bind = { ...fakeBind('a', { isBound: false }) };
    const pool = createBindPool([bind]);
    let acquired = false;
    const waiting = pool.acquire(new AbortController().signal).then(() => {
      acquired = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(acquired).toBe(false);

    Object.assign(bind, { isBound: true });
    pool.stateChanged();
    await waiting;
    expect(acquired).toBe(true);
  });

  it('when the connector stops while a caller waits, then acquire throws ShuttingDownError', async () => {
    const pool = createBindPool([fakeBind('a', { isBound: false })]);
    const stopping = new AbortController();
    const waiting = pool.acquire(stopping.signal);
    stopping.abort();
    await expect(waiting).rejects.toBeInstanceOf(ShuttingDownError);
  });
});

describe('createWindow', () => {
  it('when the window is full, then the next acquire waits for a release', async () => {
    const window = createWindow(2);
    await window.acquire();
    await window.acquire();
    let third = false;
    const waiting = window.acquire().then(() => {
      third = true;
    });
    await Promise.resolve();
    expect(third).toBe(false);
    expect(window.inUse).toBe(2);

    window.release();
    await waiting;
    expect(third).toBe(true);
    expect(window.inUse).toBe(2);
  });
});
