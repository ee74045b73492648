import type { RequestHandler } from 'express';
import type { ProtectedSenderStore } from '../protected-senders/protected-senders.js';

export function listProtectedSenders(store: ProtectedSenderStore): RequestHandler {
  return async (_req, res) => {
    res.json(await store.list());
  };
}
