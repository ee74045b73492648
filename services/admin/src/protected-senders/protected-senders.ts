import { enqueueOutbox } from '@msg/bus';
import {
  MAX_PROTECTED_SENDERS,
  makeEvent,
  PROTECTED_SENDERS_EVENT,
  PROTECTED_SENDERS_KEY,
  type ProtectedSenders,
  Topics,
} from '@msg/contracts';
import { prismaSql } from '@msg/db';
import { ConflictError, NotFoundError, ValidationError } from '@msg/http';
import { lookalikeKey, validateSenderId } from '@msg/sms-text';
import { ADMIN_SCHEMA } from '../accounts/accounts.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

/** An entry as the operator API shows it (the `ProtectedSender` schema). */
export interface ProtectedSenderView {
  name: string;
  createdAt: string;
}

export interface ProtectedSenderListView {
  protectedSenders: ProtectedSenderView[];
  total: number;
  version: number;
}

type Tx = Prisma.TransactionClient;

const view = (row: { name: string; createdAt: Date }): ProtectedSenderView => ({
  name: row.name,
  createdAt: row.createdAt.toISOString(),
});

/** The name of a path, if it is an alphanumeric sender id; 400 naming `path.name` otherwise. */
function alphanumeric(name: string): string {
  const form = validateSenderId(name);
  if (!form.ok) throw ValidationError.field(['path', 'name'], form.reason, form.message);
  if (form.type !== 'alphanumeric') {
    throw ValidationError.field(
      ['path', 'name'],
      'not_alphanumeric',
      'only alphanumeric sender ids are protected: a number or shortcode is a sender only for the account it is registered to',
    );
  }
  return name;
}

/**
 * The operator's protected sender names. Every change runs in one transaction that first locks
 * the list's version row (so changes take turns), changes the table, raises the version and
 * queues the whole list on senders.protected.v1 (outbox): a committed change is always published,
 * and a later change always with a higher version.
 */
export function createProtectedSenders({ prisma }: { prisma: PrismaClient }) {
  async function lockVersion(tx: Tx): Promise<void> {
    await prismaSql(tx).query(
      `SELECT 1 FROM "${ADMIN_SCHEMA}"."protected_sender_list" WHERE "id" = 1 FOR UPDATE`,
    );
  }

  async function read(tx: Tx | PrismaClient): Promise<ProtectedSenderListView> {
    const [rows, list] = await Promise.all([
      tx.protectedSender.findMany({ orderBy: { name: 'asc' } }),
      tx.protectedSenderList.findUniqueOrThrow({ where: { id: 1 } }),
    ]);
    return { protectedSenders: rows.map(view), total: rows.length, version: Number(list.version) };
  }

  /** Queues the list as it stands in `tx` on senders.protected.v1, under `version`. */
  async function publish(tx: Tx, traceId?: string): Promise<ProtectedSenderListView> {
    const current = await read(tx);
    const payload: ProtectedSenders = {
      names: current.protectedSenders.map((entry) => entry.name),
      version: current.version,
      updatedAt: new Date().toISOString(),
    };
    await enqueueOutbox(prismaSql(tx), ADMIN_SCHEMA, Topics.protectedSenders, [
      {
        key: PROTECTED_SENDERS_KEY,
        value: makeEvent(PROTECTED_SENDERS_EVENT, payload, traceId ? { traceId } : {}),
      },
    ]);
    return current;
  }

  /** Raises the version (the row is locked already) and publishes the list. */
  async function changed(tx: Tx, traceId?: string): Promise<void> {
    await tx.protectedSenderList.update({
      where: { id: 1 },
      data: { version: { increment: 1 }, updatedAt: new Date() },
    });
    await publish(tx, traceId);
  }

  return {
    list: (): Promise<ProtectedSenderListView> => read(prisma),

    /** Protects `name`; `created` is false when it (or a look-alike) was on the list already. */
    async add(name: string, traceId?: string) {
      const protectedName = alphanumeric(name);
      const nameKey = lookalikeKey(protectedName);
      return prisma.$transaction(async (tx) => {
        await lockVersion(tx);
        const existing = await tx.protectedSender.findUnique({ where: { nameKey } });
        if (existing) return { created: false, entry: view(existing) };
        if ((await tx.protectedSender.count()) >= MAX_PROTECTED_SENDERS) {
          throw new ConflictError(
            `the list already holds its maximum of ${MAX_PROTECTED_SENDERS} protected names`,
          );
        }
        const row = await tx.protectedSender.create({ data: { nameKey, name: protectedName } });
        await changed(tx, traceId);
        return { created: true, entry: view(row) };
      });
    },

    /** Takes `name` (or the entry it looks like) off the list; 404 when it is not on it. */
    async remove(name: string, traceId?: string): Promise<void> {
      const nameKey = lookalikeKey(alphanumeric(name));
      await prisma.$transaction(async (tx) => {
        await lockVersion(tx);
        const { count } = await tx.protectedSender.deleteMany({ where: { nameKey } });
        if (count === 0) throw new NotFoundError(`${name} is not a protected sender name`);
        await changed(tx, traceId);
      });
    },

    /** Publishes the list again as it is (same version): repairs a lost or new topic. */
    republish: (traceId?: string): Promise<ProtectedSenderListView> =>
      prisma.$transaction(async (tx) => {
        await lockVersion(tx);
        return publish(tx, traceId);
      }),
  };
}

export type ProtectedSenderStore = ReturnType<typeof createProtectedSenders>;
