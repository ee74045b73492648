import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../src/routes.js';

const INGRESS = new URL('../../../k8s/base/gateway/ingress.yaml', import.meta.url);

describe('the example Ingress (k8s/base/gateway/ingress.yaml)', () => {
  const exposed = [...readFileSync(INGRESS, 'utf8').matchAll(/path:\s*(\/[^\s,}]*)/g)].map(
    (match) => match[1],
  );

  it('when the routing table has a public prefix, then the Ingress exposes it', () => {
    for (const route of ROUTES) expect(exposed, route.prefix).toContain(route.prefix);
  });

  it('when the Ingress is read, then it exposes nothing but the routes and /docs', () => {
    const allowed = new Set([...ROUTES.map((route) => route.prefix), '/docs']);
    expect(exposed.filter((path) => !allowed.has(path ?? ''))).toEqual([]);
  });
});
