import type { BenchResults } from '../bench';
import { fig, kb, ms, signed, table, x } from './format';

/** Section 1: bundle sizes and cold start against the floor. */
export function coldStartSection(results: BenchResults): string[] {
  const out: string[] = [];
  if (results.bundles && results.coldStart) {
    const cold = results.coldStart;
    const floor = cold.entries.find((e) => e.kind === 'floor');
    out.push('## 1. Bundles and cold start');
    out.push('');
    out.push(
      `Each function bundled exactly like the CDK construct (esbuild, ESM, node24, minified, AWS SDK included, no source map), then imported in a fresh Node ${cold.node} process and called once against DynamoDB Local; ${cold.rounds} rounds. Floor: a bundle that creates a DynamoDB client and does one GetItem (${floor ? `import ${ms(floor.importMs.median)} ms, first call ${ms(floor.callMs?.median)} ms` : 'n/a'}). The target is judged on the import's CPU time (user + system, all threads): on a shared machine wall time also counts waiting for a core, and CPU work is what a Lambda's slice of a vCPU has to get through. "Not called" lists bundled packages none of whose functions ran during the handler call (V8 coverage mapped through the source map). \`console-authorizer\`'s first call verifies an analyst's ID token signed by the bench service's local issuer, which includes fetching the issuer's JWKS once over loopback (on AWS, Cognito's JWKS over the network).`,
    );
    out.push('');
    const rows = cold.entries
      .filter((e) => e.kind !== 'probe')
      .sort((a, b) =>
        a.kind === 'floor' ? -1 : b.kind === 'floor' ? 1 : b.importCpuRatio.median - a.importCpuRatio.median,
      )
      .map((e) => {
        const bundle = results.bundles?.find((b) => b.name === e.name);
        const notCalled = (e.uncalled ?? [])
          .filter((p) => p.bytes >= 4096)
          .slice(0, 4)
          .map((p) => `${p.name} ${kb(p.bytes)}${p.ranAtImport ? ' (import only)' : ''}`)
          .join(', ');
        return [
          `\`${e.name}\``,
          e.kind,
          bundle ? kb(bundle.bytes) : '',
          fig(e.importMs),
          fig(e.importCpuMs),
          e.callMs ? fig(e.callMs) : '—',
          e.kind === 'floor' ? '1' : fig(e.importCpuRatio, x),
          e.kind === 'floor' ? '1' : fig(e.importRatio, x),
          e.kind === 'floor' ? '1' : x(e.coldRatio.median),
          String(e.outcome ?? '—'),
          (bundle?.topPackages ?? [])
            .slice(0, 4)
            .map((p) => `${p.name} ${kb(p.bytes)}`)
            .join(', '),
          notCalled || '—',
        ];
      });
    out.push(
      table(
        [
          'Function',
          'Kind',
          'Size',
          'Import ms',
          'Import CPU ms',
          'First call ms',
          'Import vs floor (CPU)',
          'Import vs floor (wall)',
          'Cold vs floor (wall)',
          'Answer',
          'Largest contributors',
          'Not called (≥ 4 KB)',
        ],
        rows,
      ),
    );
    out.push('');
    const probes = cold.entries.filter((e) => e.kind === 'probe');
    if (probes.length) {
      out.push(
        'What each dependency costs at import on its own: the floor bundle plus that one dependency, used as the service uses it, in the same rounds.',
      );
      out.push('');
      out.push(
        table(
          [
            'Floor + dependency',
            'Size',
            'Import CPU ms',
            'Import vs floor (CPU)',
            'Import CPU − floor ms',
            'Import − floor ms (wall)',
          ],
          [...probes]
            .sort((a, b) => b.importCpuDeltaMs.median - a.importCpuDeltaMs.median)
            .map((e) => {
              const bundle = results.bundles?.find((b) => b.name === e.name);
              return [
                `\`${e.name}\``,
                bundle ? kb(bundle.bytes) : '',
                fig(e.importCpuMs),
                fig(e.importCpuRatio, x),
                fig(e.importCpuDeltaMs),
                fig(e.importDeltaMs),
              ];
            }),
        ),
      );
      out.push('');
    }
    if (cold.variants.length) {
      out.push(
        `Variants of one function against its plain bundle, paired per round (${cold.rounds * 2} rounds):`,
      );
      out.push('');
      out.push(
        table(
          [
            'Function',
            'Variant',
            'Size',
            'Import CPU ms',
            'Plain bundle CPU ms',
            'CPU vs plain',
            'Wall vs plain',
          ],
          cold.variants.map((v) => [
            `\`${v.base}\``,
            v.description,
            `${kb(v.bytes)} (plain ${kb(v.baseBytes)})`,
            fig(v.importCpuMs),
            fig(v.baseImportCpuMs),
            fig(v.cpuRatio, x),
            fig(v.wallRatio, x),
          ]),
        ),
      );
    }
    out.push('');
    if (cold.runTool) out.push(...runToolSection(cold.runTool));
  }
  return out;
}

function runToolSection(r: NonNullable<NonNullable<BenchResults['coldStart']>['runTool']>): string[] {
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const others = r.readerIn.filter((name) => name !== r.function);
  return [
    `### \`${r.function}\` before and after the offline enrichment data`,
    '',
    `The workflow step that runs one tool, in a fresh process per case, ${r.rounds} rounds in rotating order. The data (${mb(r.dataBytes)}: ASN table, country database, mail-provider lists) ships beside this function only and is read lazily, so its cost lands on the first IP lookup of a sandbox, not on the import. "Before" is this function built with the offline-data module stubbed out, called with the same event: the function as it was without the data.`,
    '',
    table(
      [
        'Case',
        'Size',
        'Import ms',
        'Import CPU ms',
        'First call ms',
        'First call CPU ms',
        'Import + first call ms',
        'Answer',
      ],
      r.cases.map((c) => [
        c.description,
        kb(c.bytes),
        fig(c.importMs),
        fig(c.importCpuMs),
        fig(c.callMs),
        fig(c.callCpuMs),
        fig(c.coldMs),
        String(c.outcome ?? '—'),
      ]),
    ),
    '',
    `As shipped against before, paired per round: import CPU ${fig(r.importCpuRatio, x)}; first call CPU ${signed(r.callCpuDeltaMs.median)} ms (wall ${fig(r.callRatio, x)}); import + first call CPU ${fig(r.coldCpuRatio, x)} (${signed(r.coldCpuDeltaMs.median)} ms), wall ${fig(r.coldRatio, x)} (${signed(r.coldDeltaMs.median)} ms). CPU time is the figure to read: on a shared machine wall time also counts waiting for a core. Later calls in the same sandbox search the data in memory.`,
    '',
    others.length === 0
      ? `The other functions: none of the ${r.bundlesChecked - 1} other bundles built in this run carries the offline-data reader (mmdb-lib, shared/platform/offline-intel.ts), and the data is in \`${r.function}\`'s asset only (ServiceFunction \`offlineData\`), so their size, import and first call are what they were without it.`
      : `❌ The offline-data reader is also bundled in: ${others.map((n) => `\`${n}\``).join(', ')}.`,
    '',
  ];
}
