import { IMPORT_RATIO_TARGET } from '../../scenarios/cold-start';
import type { BenchResults } from '../bench';
import { barChart } from '../svg';

/** The SVG charts beside the results page. */
export function renderCharts(results: BenchResults): Record<string, string> {
  const charts: Record<string, string> = {};
  const cold = results.coldStart;
  if (cold) {
    const entries = cold.entries
      .filter((e) => e.kind !== 'floor' && e.kind !== 'probe')
      .sort((a, b) => b.importCpuRatio.median - a.importCpuRatio.median);
    charts['cold-start'] = barChart({
      title: 'Cold import CPU time vs the floor bundle (fresh Node 24 process)',
      subtitle: `median of ${cold.rounds} rounds, whiskers min–max; dashed line: target ${IMPORT_RATIO_TARGET}× (HTTP functions and the authorizer)`,
      unit: '× floor import CPU time',
      bars: entries.map((e) => ({
        label: `${e.name} (${e.kind})`,
        value: e.importCpuRatio.median,
        range: [e.importCpuRatio.min, e.importCpuRatio.max] as [number, number],
        flagged:
          (e.kind === 'http' || e.kind === 'authorizer') && e.importCpuRatio.median > IMPORT_RATIO_TARGET,
      })),
      marker: { value: IMPORT_RATIO_TARGET, label: `${IMPORT_RATIO_TARGET}×` },
    });
  }
  const cost = results.cost;
  if (cost) {
    const segments = (l: (typeof cost.lines)[number]) => [
      { name: 'API Gateway', value: l.perMillion.apiGateway },
      { name: 'Lambda', value: l.perMillion.lambdaRequests + l.perMillion.lambdaDuration },
      { name: 'DynamoDB', value: l.perMillion.dynamodb },
      { name: 'Step Functions', value: l.perMillion.stepFunctions },
      { name: 'Logs', value: l.perMillion.logs },
      { name: 'X-Ray', value: l.perMillion.xray },
      { name: 'Transfer', value: l.perMillion.dataTransfer },
    ];
    // Two charts: an investigation costs ~70× a plugin call, which would flatten the calls' bars.
    const split = [
      {
        name: 'cost-calls',
        title: 'plugin calls',
        lines: cost.lines.filter((l) => l.use.stateTransitions === 0),
      },
      {
        name: 'cost-investigations',
        title: 'investigations',
        lines: cost.lines.filter((l) => l.use.stateTransitions > 0),
      },
    ];
    for (const part of split) {
      if (part.lines.length === 0) continue;
      charts[part.name] = barChart({
        title: `Cost per 1 million ${part.title} (${cost.region}, list prices ${cost.pricesAsOf})`,
        subtitle: 'from request units, Lambda time, transitions and log bytes measured per call',
        unit: 'USD per 1M',
        format: (v) => `$${v.toFixed(2)}`,
        bars: part.lines.map((l) => ({
          label: l.skill ?? l.title.split(' (')[0]!.split(':')[0]!.slice(0, 44),
          value: l.perMillion.total,
          segments: segments(l),
        })),
      });
    }
  }
  const scale = results.scale;
  if (scale) {
    const rows = [...scale.graph, ...scale.incidents, ...scale.search];
    charts.scale = barChart({
      title: 'Knowledge routes at scale: p50 latency of one page through the gateway',
      subtitle: `${scale.samplesPerLevel} requests per size; whiskers p50–p90`,
      unit: 'ms',
      bars: rows.map((r) => ({
        label: `${r.query.split(',')[0]} @ ${r.size >= 1000 ? `${r.size / 1000}k` : r.size}`,
        value: r.latencyMs.p50,
        range: [r.latencyMs.p50, r.latencyMs.p90] as [number, number],
      })),
    });
  }
  return charts;
}
