import { describe, expect, it } from 'vitest';
import { eventually } from './eventually.js';

describe('eventually', () => {
  it('when the probe answers after a few tries, then that answer comes back', async () => {
    let tries = 0;
    const found = await eventually(() => (++tries >= 3 ? `after ${tries}` : undefined), 'three');
    expect(found).toBe('after 3');
  });

  it('when the probe never answers, then it fails naming what it waited for', async () => {
    await expect(eventually(() => undefined, 'the impossible', 50)).rejects.toThrow(
      'timed out waiting for the impossible',
    );
  });
});
