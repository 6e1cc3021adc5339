/**
 * An empty stand-in for @aws-lambda-powertools/metrics, for the probe that measures the HTTP shell
 * without Powertools (bench/floor/dependency-probes.ts). Never run: the probe is only imported.
 */
export const MetricUnit = { Count: 'Count', Milliseconds: 'Milliseconds' } as const;

export class Metrics {
  addMetric(): void {}
  addDimension(): void {}
  hasStoredMetrics(): boolean {
    return false;
  }
  publishStoredMetrics(): void {}
  singleMetric(): Metrics {
    return this;
  }
}
