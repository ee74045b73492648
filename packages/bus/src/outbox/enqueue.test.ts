import { exampleEvents, Topics } from '@msg/contracts';
import type { Sql } from '@msg/db';
import { describe, expect, it } from 'vitest';
import { InvalidEventError } from '../event-validation.js';
import { enqueueOutbox } from './enqueue.js';

/** Records the statements it is asked to run. */
function recordingSql(): Sql & { statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    async query(text) {
      statements.push(text);
      return { rows: [], rowCount: 0 };
    },
  };
}

describe('enqueueOutbox', () => {
  it('when an event breaks its topic schema, then it is refused and nothing is written', async () => {
    const sql = recordingSql();
    const valid = exampleEvents[Topics.smsStatus];
    const broken = { ...valid, id: 'broken', payload: { ...valid.payload, state: 'accepted' } };

    const enqueued = enqueueOutbox(sql, 'sms', Topics.smsStatus, [
      { key: 'm1', value: valid },
      { key: 'm2', value: broken },
    ]);

    await expect(enqueued).rejects.toThrow(InvalidEventError);
    await expect(enqueued).rejects.toThrow(/event broken .* payload\.state/);
    expect(sql.statements).toEqual([]);
  });

  it('when every event follows its schema, then they are inserted', async () => {
    const sql = recordingSql();
    await enqueueOutbox(sql, 'sms', Topics.smsStatus, [
      { key: 'm1', value: exampleEvents[Topics.smsStatus] },
    ]);
    expect(sql.statements).toHaveLength(1);
  });
});

describe('enqueueOutbox statements', () => {
  it('when 1,500 events are enqueued, then two multi-row statements each notify the relays', async () => {
    const sql = recordingSql();
    const event = exampleEvents[Topics.smsStatus];
    const messages = Array.from({ length: 1_500 }, (_, n) => ({
      key: `m${n}`,
      value: { ...event, id: `e${n}` },
    }));
    await enqueueOutbox(sql, 'sms', Topics.smsStatus, messages);
    expect(sql.statements).toHaveLength(2);
    for (const text of sql.statements) expect(text).toMatch(/pg_notify\(\$\d+, ''\)/);
  });
});
