import type { Admin } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { isRetriable, topicOffsets } from './kafka-subscription.js';

type Offsets = Awaited<ReturnType<Admin['fetchTopicOffsets']>>;

function adminFailingWith(error: Error): Pick<Admin, 'fetchTopicOffsets'> {
  return {
    fetchTopicOffsets: async () => {
      throw error;
    },
  };
}

describe('topicOffsets (a topic another service created moments ago)', () => {
  it("gives kafkajs' offsets as they are", async () => {
    const offsets: Offsets = [{ partition: 0, offset: '5', high: '5', low: '0' }];
    await expect(topicOffsets({ fetchTopicOffsets: async () => offsets }, 't')).resolves.toBe(
      offsets,
    );
  });

  it("turns kafkajs' TypeError on metadata without the topic's partitions into a retriable error", async () => {
    const typeError = new TypeError(
      "Cannot destructure property 'partitions' of 'high.pop(...)' as it is undefined.",
    );
    const error = await topicOffsets(adminFailingWith(typeError), 'sms.status.v1').catch(
      (e: unknown) => e,
    );
    expect(isRetriable(error)).toBe(true);
    expect(String(error)).toContain('sms.status.v1');
  });

  it('passes other errors through unchanged (not made retriable)', async () => {
    const other = new Error('authorization failed');
    const error = await topicOffsets(adminFailingWith(other), 't').catch((e: unknown) => e);
    expect(error).toBe(other);
    expect(isRetriable(error)).toBe(false);
  });
});
