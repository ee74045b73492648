// The floor: a bare express app answering every path with the same small JSON as a health check.
import express from 'express';

const server = express()
  .use(express.json())
  .use((_req, res) => res.json({ status: 'OK' }))
  .listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
