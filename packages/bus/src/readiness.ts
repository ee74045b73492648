import type { Bus } from './types.js';

/** The /readyz check of a service that needs its bus: ready while the bus reports a live connection. */
export function busReadiness(bus: Pick<Bus, 'isReady'>): { name: string; isReady(): boolean } {
  return { name: 'bus', isReady: () => bus.isReady() };
}
