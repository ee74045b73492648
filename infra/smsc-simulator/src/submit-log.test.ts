import { describe, expect, it } from 'vitest';
import type { RecordedSubmit } from './smsc-types.js';
import { createSubmitLog } from './submit-log.js';

const submit = (n: number) => ({ messageId: String(n) }) as RecordedSubmit;
const ids = (submits: RecordedSubmit[]) => submits.map((s) => s.messageId);

describe('createSubmitLog', () => {
  it('when fewer than capacity are recorded, then every one is listed, oldest first', () => {
    const log = createSubmitLog(5);
    for (let n = 0; n < 3; n++) log.add(submit(n));
    expect(ids(log.list())).toEqual(['0', '1', '2']);
    expect(log.total()).toBe(3);
  });

  it('when more than capacity are recorded, then only the newest are kept and the total counts all', () => {
    const log = createSubmitLog(3);
    for (let n = 0; n < 7; n++) log.add(submit(n));
    expect(ids(log.list())).toEqual(['4', '5', '6']);
    expect(log.total()).toBe(7);
  });

  it('when listed from a number, then only submits from that number on are answered', () => {
    const log = createSubmitLog(3);
    for (let n = 0; n < 7; n++) log.add(submit(n));
    expect(ids(log.list(5))).toEqual(['5', '6']);
    expect(ids(log.list(7))).toEqual([]);
    // Asked from a forgotten number: what is still kept.
    expect(ids(log.list(1))).toEqual(['4', '5', '6']);
  });

  it('when cleared, then nothing is listed and numbering starts again', () => {
    const log = createSubmitLog(3);
    for (let n = 0; n < 4; n++) log.add(submit(n));
    log.clear();
    log.add(submit(9));
    expect(ids(log.list())).toEqual(['9']);
    expect(log.total()).toBe(1);
  });

  it('when the capacity is not a positive integer, then it is refused', () => {
    expect(() => createSubmitLog(0)).toThrow(RangeError);
  });
});
