// The floor: a bare express endpoint answering the same JSON as the batch health check.
import express from 'express';

const server = express()
  .get('/ping', (_req, res) => res.json({ status: 'OK' }))
  .listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
