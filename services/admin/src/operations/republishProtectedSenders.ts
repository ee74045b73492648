import type { RequestHandler } from 'express';
import type { ProtectedSenderStore } from '../protected-senders/protected-senders.js';

export function republishProtectedSenders(store: ProtectedSenderStore): RequestHandler {
  return async (req, res) => {
    res.status(202).json(await store.republish(req.requestId));
  };
}
