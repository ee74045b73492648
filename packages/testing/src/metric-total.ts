/** What metricTotal reads of a prom-client Registry (structural: no prom-client dependency here). */
export interface MetricSource {
  getSingleMetric(
    name: string,
  ):
    | { get(): Promise<{ values: { value: number; labels: Record<string, unknown> }[] }> }
    | undefined;
}

/**
 * The sum of a counter's values whose labels include `labels` (all of them when none are given);
 * 0 while the metric is not registered or never counted.
 */
export async function metricTotal(
  registry: MetricSource,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get();
  return (metric?.values ?? [])
    .filter((v) => Object.entries(labels).every(([key, value]) => v.labels[key] === value))
    .reduce((sum, v) => sum + v.value, 0);
}
