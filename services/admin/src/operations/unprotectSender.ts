import type { RequestHandler } from 'express';
import type { ProtectedSenderStore } from '../protected-senders/protected-senders.js';

export function unprotectSender(store: ProtectedSenderStore): RequestHandler<{ name: string }> {
  return async (req, res) => {
    await store.remove(req.params.name, req.requestId);
    res.status(204).end();
  };
}
