import type { BenchResults } from '../bench';
import { fig, ms, table, x } from './format';

/** Section 3: background investigations, with or without connectors. */
export function investigationsSection(results: BenchResults): string[] {
  const out: string[] = [];
  const inv = results.investigations;
  if (inv) {
    const b = inv.background;
    out.push('## 3. Investigations');
    out.push('');
    out.push(
      `${b.runs} background investigations one at a time (${b.toolInvocations} tools, ${b.stepInvocations} step invocations each at the median): start request → the Persist step returned (status completed).`,
    );
    out.push('');
    out.push(
      table(
        ['', 'p50 ms', 'p90 ms', 'p99 ms'],
        [
          ['start → completed', b.totalMs],
          ['start request (202)', b.startRequestMs],
          ['start handler', b.startHandlerMs],
          ['step handlers busy (engine + its DynamoDB writes)', b.stepBusyMs],
          ['workflow overhead (interpreter, scheduling, hops)', b.overheadMs],
        ].map(([name, d]) => [
          name as string,
          ms((d as typeof b.totalMs).p50),
          ms((d as typeof b.totalMs).p90),
          ms((d as typeof b.totalMs).p99),
        ]),
      ),
    );
    out.push('');
    const st = inv.backgroundStandard;
    out.push(
      `Those runs take the Express state machine (rules analyst, no connector). The same ${st.runs} runs on the Standard state machine (bedrock and connector runs take it), right after: start → completed p50 ${ms(st.totalMs.p50)} ms, p90 ${ms(st.totalMs.p90)} ms, p99 ${ms(st.totalMs.p99)} ms; workflow overhead p50 ${ms(st.overheadMs.p50)} ms (the local interpreter is the same for both; on AWS the types differ in price and guarantees, docs/workflow.md).`,
    );
    out.push('');
    out.push(
      `Completed run ÷ step handler busy time (the run's floor): p50 ${x(b.overheadRatio.p50)}. Synchronous start (${inv.synchronous.runs} runs): p50 ${ms(inv.synchronous.latencyMs.p50)} ms, p99 ${ms(inv.synchronous.latencyMs.p99)} ms, ${ms(inv.synchronous.waitExtraMs)} ms above the background run at the median (the handler re-reads the session every 50 ms for 300 ms, then backs off to 250 ms). ${inv.concurrent.investigations} investigations started at once (${inv.concurrent.rounds} round${inv.concurrent.rounds > 1 ? 's' : ''}): ${fig(inv.concurrent.perSecond, (v) => v.toFixed(1))} completed per second, all done in ${fig(inv.concurrent.wallMs)} ms, each p50 ${fig(inv.concurrent.totalP50Ms)} ms / p99 ${fig(inv.concurrent.totalP99Ms)} ms${inv.concurrent.failed ? `, ${inv.concurrent.failed} failed` : ''}.`,
    );
    out.push('');
    if (inv.intel) out.push(...intelSection(inv.intel));
  }
  return out;
}

function intelSection(intel: NonNullable<NonNullable<BenchResults['investigations']>['intel']>): string[] {
  const names = intel.connectors.join(' and ');
  const mode = {
    off: 'without connectors',
    cold: `${names}, cache cold (\`refresh_intel: true\`)`,
    warm: `${names}, cache warm`,
  } as const;
  return [
    '### With threat-intelligence connectors',
    '',
    `Background investigations of a public IP with ${names} pointed at the local fake provider server (test/support/intel-fake-server.ts: the providers' paths, auth headers and documented answers, on loopback, answering at once), against the same investigation without connectors, ${intel.rounds} rounds of the three in rotating order in the same runtime. Connectors are switched on and off through the configuration before every run, in every mode alike. Each run is checked: cold runs asked every source, warm runs were served from the cache and asked none, runs without connectors planned none.`,
    '',
    table(
      [
        '',
        'Tools',
        'Provider requests',
        'p50 ms',
        'p90 ms',
        'Step handlers busy p50 ms',
        'Billed step ms p50',
        'Service CPU ms p50',
        'Wall vs without (paired)',
        'CPU vs without (paired)',
      ],
      (['off', 'cold', 'warm'] as const).map((m) => {
        const v = intel.modes[m];
        return [
          mode[m],
          String(v.toolInvocations),
          String(v.providerRequests),
          ms(v.totalMs.p50),
          ms(v.totalMs.p90),
          ms(v.stepBusyMs.p50),
          ms(v.stepBilledMs.p50),
          ms(v.cpuMs.p50),
          m === 'off' ? '1' : fig(m === 'cold' ? intel.coldRatio : intel.warmRatio, x),
          m === 'off' ? '1' : fig(m === 'cold' ? intel.coldCpuRatio : intel.warmCpuRatio, x),
        ];
      }),
    ),
    '',
    `Service CPU is this process's CPU time over the run (local runtime, handlers and the fake providers; DynamoDB Local runs in its own JVM and is not counted): the work itself, insensitive to waiting for a core, so it is the ratio to read on a loaded machine. Billed step time (all step handlers' durations summed) against the run without connectors: cache cold ${fig(intel.coldBilledRatio, x)}, cache warm ${fig(intel.warmBilledRatio, x)}. The connectors are further iterations of the workflow's tool map (at most four tools at a time); the fake answers at once, so these figures are the service's own cost of asking (HTTP client, cache, quota and circuit records, the extra tool steps), and a real provider's response time comes on top of a cold run.`,
    '',
  ];
}
