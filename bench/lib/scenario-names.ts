/** Every scenario `npm run bench` knows, in the order it runs them; `--only=` picks among these. */
export const BENCH_SCENARIOS = [
  'bundles',
  'cold-start',
  'polling',
  'mcp',
  'investigations',
  'cost',
  'scale',
  'console',
  'cli',
  'soar',
] as const;
export type BenchScenario = (typeof BENCH_SCENARIOS)[number];
