/** A listen the OS refused because something else holds the address (EADDRINUSE). */
interface AddressInUse {
  port: number;
  address?: string;
}

/** `error` or one of its causes, when it is a refused listen; Node puts the port on the error. */
function addressInUse(error: unknown, depth = 0): AddressInUse | undefined {
  if (typeof error !== 'object' || error === null || depth > 5) return undefined;
  const { code, port, address, cause } = error as {
    code?: unknown;
    port?: unknown;
    address?: unknown;
    cause?: unknown;
  };
  if (code === 'EADDRINUSE' && typeof port === 'number') {
    return { port, ...(typeof address === 'string' && { address }) };
  }
  return addressInUse(cause, depth + 1);
}

/**
 * The sentence an operator needs when start-up failed because a port is taken: the port and
 * the setting of `config` that chose it (`port 8080 is in use: set PORT to a free port`).
 * Undefined for any other failure, which keeps its stack.
 */
export function portInUseMessage(error: unknown, config: object): string | undefined {
  const refused = addressInUse(error);
  if (!refused) return undefined;
  const settings = Object.entries(config)
    .filter(([name, value]) => /(^|_)PORT$/.test(name) && value === refused.port)
    .map(([name]) => name);
  const where = refused.address ? ` on ${refused.address}` : '';
  const fix =
    settings.length > 0 ? `: set ${settings.join(' or ')} to a free port (0 picks one)` : '';
  return `port ${refused.port}${where} is in use${fix}`;
}
