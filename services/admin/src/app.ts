import { requireServiceToken } from '@msg/auth';
import { internalDocumentPath } from '@msg/contracts';
import {
  createService,
  type IdempotencyStore,
  jsonErrorFormat,
  type KitHttpOptions,
  type TargetPolicy,
} from '@msg/http';
import type { Accounts } from './accounts/accounts.js';
import type { Debits } from './accounts/debits.js';
import { internalDocsRouter } from './internal-docs.js';
import { addOptOut } from './operations/addOptOut.js';
import { createAccount } from './operations/createAccount.js';
import { createApiKey } from './operations/createApiKey.js';
import { debitAccount } from './operations/debitAccount.js';
import { disableAccount } from './operations/disableAccount.js';
import { enableAccount } from './operations/enableAccount.js';
import { getAccount } from './operations/getAccount.js';
import { listAccounts } from './operations/listAccounts.js';
import { listOptOuts } from './operations/listOptOuts.js';
import { listProtectedSenders } from './operations/listProtectedSenders.js';
import { protectSender } from './operations/protectSender.js';
import { refundDebit } from './operations/refundDebit.js';
import { removeOptOut } from './operations/removeOptOut.js';
import { republishAccounts } from './operations/republishAccounts.js';
import { republishProtectedSenders } from './operations/republishProtectedSenders.js';
import { revokeApiKey } from './operations/revokeApiKey.js';
import { setPassword } from './operations/setPassword.js';
import { topUpAccount } from './operations/topUpAccount.js';
import { unprotectSender } from './operations/unprotectSender.js';
import { updateAccount } from './operations/updateAccount.js';
import type { OptOuts } from './opt-outs/opt-outs.js';
import type { ProtectedSenderStore } from './protected-senders/protected-senders.js';

export interface AdminAppDeps {
  accounts: Accounts;
  /** The accounts' opt-out lists (optouts.v1). */
  optOuts: OptOuts;
  /** The operator's protected sender names (senders.protected.v1). */
  protectedSenders: ProtectedSenderStore;
  adminToken: string;
  debits: Debits;
  /** Token of the sending services' debit calls; undefined refuses every debit (401). */
  billingToken: string | undefined;
  /**
   * Idempotency-Key records of republish, disable and enable. createAccount and createApiKey do
   * not take the header: their answer may carry a new API key, which must not be kept in clear.
   */
  idempotencyStore: IdempotencyStore;
  /** The kit's part of createService (ServiceContext.http of @msg/service-kit). */
  http: KitHttpOptions;
  /** Whether the callbacks' URLs may name a private host (CALLBACK_ALLOW_PRIVATE_TARGETS); refused by default. */
  clientUrls?: TargetPolicy;
}

/** The admin service's HTTP app. Never listens: main.ts (or a test) does. */
export function createApp(deps: AdminAppDeps) {
  const { accounts, optOuts, protectedSenders } = deps;
  return createService({
    ...deps.http,
    name: 'admin',
    openapiPath: internalDocumentPath('admin'),
    errorFormat: jsonErrorFormat,
    ...(deps.clientUrls && { clientUrls: deps.clientUrls }),
    authenticators: {
      // Only callers presenting the operator token may use the internal API.
      adminToken: requireServiceToken(deps.adminToken, {
        realm: 'admin',
        message: 'a valid admin token is required',
      }),
      // The sending services may debit and nothing else; the operator token may not debit.
      billingToken: requireServiceToken(deps.billingToken, {
        realm: 'billing',
        message: 'a valid billing token is required',
      }),
    },
    // One operator token: every key belongs to the operator.
    idempotency: { store: deps.idempotencyStore, scope: () => 'operator' },
    routes: (app) => {
      app.use('/docs', internalDocsRouter());
      const base = '/internal/v1/accounts';
      app.get(base, listAccounts(accounts));
      app.post(base, createAccount(accounts));
      app.post(`${base}/republish`, republishAccounts(accounts));
      app.get(`${base}/:account`, getAccount(accounts));
      app.patch(`${base}/:account`, updateAccount(accounts));
      app.post(`${base}/:account/disable`, disableAccount(accounts));
      app.post(`${base}/:account/enable`, enableAccount(accounts));
      app.post(`${base}/:account/top-ups`, topUpAccount(accounts));
      app.post(`${base}/:account/debits`, debitAccount(deps.debits));
      app.delete(`${base}/:account/debits/:reference`, refundDebit(deps.debits));
      app.put(`${base}/:account/password`, setPassword(accounts));
      app.post(`${base}/:account/api-keys`, createApiKey(accounts));
      app.delete(`${base}/:account/api-keys/:keyId`, revokeApiKey(accounts));
      app.get(`${base}/:account/opt-outs`, listOptOuts(optOuts));
      app.put(`${base}/:account/opt-outs/:msisdn`, addOptOut(optOuts));
      app.delete(`${base}/:account/opt-outs/:msisdn`, removeOptOut(optOuts));
      const senders = '/internal/v1/protected-senders';
      app.get(senders, listProtectedSenders(protectedSenders));
      app.post(`${senders}/republish`, republishProtectedSenders(protectedSenders));
      app.put(`${senders}/:name`, protectSender(protectedSenders));
      app.delete(`${senders}/:name`, unprotectSender(protectedSenders));
    },
  });
}
