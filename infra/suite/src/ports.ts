import { once } from 'node:events';
import { createServer } from 'node:net';
import type { SuiteConfig } from './config.js';

/**
 * The suite's TCP listeners whose port a setting fixes (0 = free, nothing to check), with the
 * address each binds: the gateway HOST, the others loopback (their own defaults).
 */
function fixedListeners(config: SuiteConfig): { port: number; host: string }[] {
  return [
    { port: config.PORT, host: config.HOST },
    { port: config.ADMIN_PORT, host: '127.0.0.1' },
    { port: config.SMSC_BINDS ? 0 : config.SMSC_CONTROL_PORT, host: '127.0.0.1' },
    { port: config.RBM_SIMULATOR_PORT, host: '127.0.0.1' },
    { port: config.SIP_CALLEE_CONTROL_PORT, host: config.SIP_CALLEE_HOST },
    { port: config.TRANSLATE_SIMULATOR_PORT, host: '127.0.0.1' },
  ].filter(({ port }) => port !== 0);
}

/**
 * Fails at once, before the database and a dozen services start, when a fixed port is taken:
 * with Node's own EADDRINUSE error, which the start turns into the setting to change
 * (`portInUseMessage`). A port taken later still fails its listen the same way.
 */
export async function checkPortsFree(config: SuiteConfig): Promise<void> {
  for (const { port, host } of fixedListeners(config)) {
    const server = createServer();
    server.listen(port, host);
    await once(server, 'listening');
    server.close();
    await once(server, 'close');
  }
}
