import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeBilling {
  /** ADMIN_URL for the service under test. */
  url: string;
  /** BILLING_INTERNAL_TOKEN it must present. */
  token: string;
  /** Sets an account's prepaid balance (credits, one per SMS part). */
  setBalance(accountId: string, credits: number): void;
  balance(accountId: string): number;
  /** References debited so far, per account, in order. */
  debited(accountId: string): string[];
  /** Debit calls received (each may carry several items). */
  readonly calls: number;
  close(): Promise<void>;
}

/**
 * A stand-in for the admin service's `POST /internal/v1/accounts/{id}/debits` (document
 * admin.yaml), for component tests of the sending services: items paid in order as far as the
 * balance goes, the rest refused; a known reference is paid again for free; `DELETE .../debits/{reference}`
 * gives a debit back. The admin service's
 * own tests check the real one (exactness under concurrency on Postgres) and the client against it.
 */
export async function startFakeBilling(
  token = 'fake-billing-token-0123456789',
): Promise<FakeBilling> {
  const balances = new Map<string, number>();
  const references = new Map<string, string[]>();
  const partsOf = new Map<string, number>();
  let calls = 0;
  const server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401).end();
      return;
    }
    const refund = /^\/internal\/v1\/accounts\/([^/]+)\/debits\/([^/]+)$/.exec(req.url ?? '');
    if (req.method === 'DELETE' && refund?.[1] && refund[2]) {
      const accountId = decodeURIComponent(refund[1]);
      const reference = decodeURIComponent(refund[2]);
      const done = references.get(accountId) ?? [];
      const refunded = done.includes(reference);
      if (refunded) {
        references.set(
          accountId,
          done.filter((r) => r !== reference),
        );
        balances.set(accountId, (balances.get(accountId) ?? 0) + (partsOf.get(reference) ?? 0));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ refunded, balance: balances.get(accountId) ?? 0 }));
      return;
    }
    const match = /^\/internal\/v1\/accounts\/([^/]+)\/debits$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match?.[1]) {
      res.writeHead(404).end();
      return;
    }
    const accountId = decodeURIComponent(match[1]);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      calls += 1;
      const { items } = JSON.parse(Buffer.concat(chunks).toString()) as {
        items: { reference: string; parts: number }[];
      };
      const done = references.get(accountId) ?? [];
      let balance = balances.get(accountId) ?? 0;
      let refused = false;
      const results = items.map(({ reference, parts }) => {
        if (done.includes(reference)) return { reference, debited: true };
        if (refused || balance < parts) {
          refused = true;
          return { reference, debited: false };
        }
        balance -= parts;
        done.push(reference);
        partsOf.set(reference, parts);
        return { reference, debited: true };
      });
      balances.set(accountId, balance);
      references.set(accountId, done);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results, balance }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    setBalance: (accountId, credits) => balances.set(accountId, credits),
    balance: (accountId) => balances.get(accountId) ?? 0,
    debited: (accountId) => [...(references.get(accountId) ?? [])],
    get calls() {
      return calls;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
