import { setTimeout as sleep } from 'node:timers/promises';
import { type Admin, Kafka, logLevel } from 'kafkajs';

/** A raw kafkajs admin for checks the Bus interface does not offer (group state, topic config). */
export async function connectTestAdmin(brokers: string[]): Promise<Admin> {
  const admin = new Kafka({
    clientId: 'bus-test-admin',
    brokers,
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  return admin;
}

/** Waits for a finished rebalance: the group is Stable with `members` members. */
export async function waitForStableGroup(
  admin: Admin,
  groupId: string,
  members: number,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { groups } = await admin.describeGroups([groupId]);
    const group = groups[0];
    if (group?.state === 'Stable' && group.members.length === members) return;
    if (Date.now() > deadline) {
      throw new Error(`group ${groupId} not stable with ${members} members: ${group?.state}`);
    }
    await sleep(100);
  }
}
