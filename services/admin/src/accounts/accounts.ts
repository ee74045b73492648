import { generateApiKey, hashSecret } from '@msg/auth';
import type { components } from '@msg/contracts/internal/admin';
import { isUuid } from '@msg/db';
import { NotFoundError } from '@msg/http';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { publishAccount as publish, withKeys } from './account-events.js';
import { type AccountRecord, type AccountView, toAccountView } from './account-record.js';
import { type AccountSettings, checkSettings, settingsColumns } from './settings.js';

export { ADMIN_SCHEMA } from './account-events.js';

/** The id of the account `ref` names (its id, or its name in any case); 404 when there is none. */
export async function findAccountId(tx: Prisma.TransactionClient, ref: string): Promise<string> {
  const where = isUuid(ref) ? { id: ref } : { nameKey: ref.toLowerCase() };
  const found = await tx.account.findUnique({ where, select: { id: true } });
  if (!found) throw new NotFoundError(`account ${ref} not found`);
  return found.id;
}

/** The createAccount body (the OpenAPI `AccountCreate` schema). */
export type NewAccount = components['schemas']['AccountCreate'];

export interface AccountsOptions {
  prisma: PrismaClient;
  /** Correlates the published event with the request that caused it. */
  traceId?: string;
}

/**
 * The use cases of the admin service. Every change writes the account and its accounts.v1 event in
 * one transaction (outbox), so a committed change is always published and nothing is published
 * that was not committed.
 */
export function createAccounts({ prisma }: AccountsOptions) {
  /** Applies `change` to one account, bumps its version and publishes the new state. */
  async function mutate(
    ref: string,
    change: (tx: Prisma.TransactionClient, id: string) => Promise<Prisma.AccountUpdateInput>,
    traceId?: string,
  ): Promise<AccountRecord> {
    return prisma.$transaction(async (tx) => {
      const id = await findAccountId(tx, ref);
      const data = await change(tx, id);
      const record = await tx.account.update({
        where: { id },
        data: { ...data, version: { increment: 1 } },
        include: withKeys,
      });
      await publish(tx, record, traceId);
      return record;
    });
  }

  /** A generated key, or the operator's own (migrated from another platform). */
  async function newApiKey(supplied?: string) {
    const key = supplied ?? generateApiKey();
    return { key, hash: await hashSecret(key), prefix: key.slice(0, 10) };
  }

  return {
    async create(input: NewAccount, traceId?: string): Promise<AccountView & { apiKey?: string }> {
      checkSettings(input);
      const passwordHash = input.password ? await hashSecret(input.password) : null;
      const apiKey = input.createApiKey ? await newApiKey() : undefined;
      // No look-before-insert: two creates of one name at the same moment would both pass it.
      // The unique name_key decides, and the shared error middleware answers the loser 409.
      const record = await prisma.$transaction(async (tx) => {
        const created = await tx.account.create({
          data: {
            name: input.name,
            nameKey: input.name.toLowerCase(),
            passwordHash,
            ...settingsColumns(input),
            ...(apiKey && { apiKeys: { create: { hash: apiKey.hash, prefix: apiKey.prefix } } }),
          },
          include: withKeys,
        });
        await publish(tx, created, traceId);
        return created;
      });
      return { ...toAccountView(record), ...(apiKey && { apiKey: apiKey.key }) };
    },

    async list(filter: { status?: 'active' | 'disabled'; limit: number; offset: number }) {
      const where = filter.status ? { status: filter.status } : {};
      const [records, total] = await Promise.all([
        prisma.account.findMany({
          where,
          include: withKeys,
          orderBy: { nameKey: 'asc' },
          take: filter.limit,
          skip: filter.offset,
        }),
        prisma.account.count({ where }),
      ]);
      return { accounts: records.map(toAccountView), total };
    },

    async get(ref: string): Promise<AccountView> {
      const where = isUuid(ref) ? { id: ref } : { nameKey: ref.toLowerCase() };
      const record = await prisma.account.findUnique({ where, include: withKeys });
      if (!record) throw new NotFoundError(`account ${ref} not found`);
      return toAccountView(record);
    },

    async update(ref: string, settings: AccountSettings, traceId?: string): Promise<AccountView> {
      checkSettings(settings);
      return toAccountView(await mutate(ref, async () => settingsColumns(settings), traceId));
    },

    async setStatus(
      ref: string,
      status: 'active' | 'disabled',
      traceId?: string,
    ): Promise<AccountView> {
      return toAccountView(await mutate(ref, async () => ({ status }), traceId));
    },

    /**
     * Adds prepaid credits (one per SMS part). The account's state is republished, so a balance
     * that was empty reads as funded again everywhere (accounts.v1 `billing.fundsAvailable`).
     */
    async topUp(ref: string, credits: number, traceId?: string): Promise<AccountView> {
      return toAccountView(
        await mutate(ref, async () => ({ balance: { increment: BigInt(credits) } }), traceId),
      );
    },

    async setPassword(ref: string, password: string, traceId?: string): Promise<void> {
      const passwordHash = await hashSecret(password);
      await mutate(ref, async () => ({ passwordHash }), traceId);
    },

    async addApiKey(ref: string, supplied?: string, traceId?: string) {
      const apiKey = await newApiKey(supplied);
      let created: { id: string; createdAt: Date } | undefined;
      await mutate(
        ref,
        async (tx, accountId) => {
          created = await tx.apiKey.create({
            data: { accountId, hash: apiKey.hash, prefix: apiKey.prefix },
            select: { id: true, createdAt: true },
          });
          return {};
        },
        traceId,
      );
      if (!created) throw new Error('api key was not created');
      return {
        id: created.id,
        apiKey: apiKey.key,
        prefix: apiKey.prefix,
        createdAt: created.createdAt.toISOString(),
      };
    },

    async revokeApiKey(ref: string, keyId: string, traceId?: string): Promise<void> {
      await mutate(
        ref,
        async (tx, accountId) => {
          const { count } = await tx.apiKey.updateMany({
            where: { id: keyId, accountId, revokedAt: null },
            data: { revokedAt: new Date() },
          });
          if (count === 0) throw new NotFoundError(`api key ${keyId} not found`);
          return {};
        },
        traceId,
      );
    },

    /** Publishes every account's current state again, in pages, each page in one transaction. */
    async republishAll(traceId?: string): Promise<number> {
      let queued = 0;
      let cursor: string | undefined;
      for (;;) {
        const page = await prisma.$transaction(async (tx) => {
          const records = await tx.account.findMany({
            include: withKeys,
            orderBy: { id: 'asc' },
            take: 500,
            ...(cursor && { cursor: { id: cursor }, skip: 1 }),
          });
          for (const record of records) await publish(tx, record, traceId);
          return records;
        });
        queued += page.length;
        const last = page.at(-1);
        if (!last) return queued;
        cursor = last.id;
      }
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
