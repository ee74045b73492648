import type { RequestHandler } from 'express';
import type { ProtectedSenderStore } from '../protected-senders/protected-senders.js';

export function protectSender(store: ProtectedSenderStore): RequestHandler<{ name: string }> {
  return async (req, res) => {
    const { created, entry } = await store.add(req.params.name, req.requestId);
    res.status(created ? 201 : 200).json(entry);
  };
}
