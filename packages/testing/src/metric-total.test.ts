import { describe, expect, it } from 'vitest';
import { type MetricSource, metricTotal } from './metric-total.js';

const registry = (values: { value: number; labels: Record<string, unknown> }[]): MetricSource => ({
  getSingleMetric: (name) => (name === 'c_total' ? { get: async () => ({ values }) } : undefined),
});

describe('metricTotal', () => {
  const counted = registry([
    { value: 2, labels: { outcome: 'applied', group: 'a' } },
    { value: 3, labels: { outcome: 'stale', group: 'a' } },
    { value: 5, labels: { outcome: 'applied', group: 'b' } },
  ]);

  it('when no labels are given, then every value is summed', async () => {
    expect(await metricTotal(counted, 'c_total')).toBe(10);
  });

  it('when labels are given, then only the values carrying all of them are summed', async () => {
    expect(await metricTotal(counted, 'c_total', { outcome: 'applied' })).toBe(7);
    expect(await metricTotal(counted, 'c_total', { outcome: 'applied', group: 'b' })).toBe(5);
    expect(await metricTotal(counted, 'c_total', { outcome: 'expired' })).toBe(0);
  });

  it('when the metric is not registered, then 0', async () => {
    expect(await metricTotal(counted, 'other_total')).toBe(0);
  });
});
