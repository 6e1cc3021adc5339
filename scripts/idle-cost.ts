import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildTenantApp } from '../infra/build-app';
import { PROJECT_ROOT } from '../infra/constructs/service-function';
import { renderCostSection, replaceGeneratedSection, withoutDashboard } from './cost/cost-section';
import { usd } from './cost/dollars';
import { type CostTemplate, idleCostReport } from './cost/idle-resources';
import { usageCostModel } from './cost/usage-model';

/**
 * What one tenant costs: every resource of the synthesised template that bills while nobody calls the
 * API (idle), and the cost of use per 1,000 plugin calls and per investigation, from the functions'
 * configured memory, the workflow's state transitions counted in the ASL, and the per-operation
 * assumptions below. `npm run cost:idle` writes the generated section of docs/cost.md; the numbers
 * in that file come from here, never from a keyboard.
 *
 *   npm run cost:idle                                  synthesise tenant "acme" (no bundling), update docs
 *   npm run cost:idle -- --template cdk.out/X.template.json --print   read a synthesised template
 *   npm run cost:idle -- -c enableWaf=true --print     any context the deployment would get
 */

export function synthesizeTemplate(context: Record<string, unknown>): CostTemplate {
  const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  const { app, stack } = buildTenantApp({
    context: { ...cdkJson.context, tenant: 'acme', 'aws:cdk:bundling-stacks': [], ...context },
  });
  const assembly = app.synth();
  return assembly.getStackArtifact(stack.artifactId).template as CostTemplate;
}

/** The options docs/cost.md prices beside the default deployment. */
export const PRICED_VARIANTS: { label: string; context: Record<string, unknown> }[] = [
  { label: '`enableWaf=true` (web ACL, rate rule, 2 managed rule groups)', context: { enableWaf: 'true' } },
  {
    label: 'one SIEM pull connector (enabled schedule every 5 minutes); its secret adds $0.40',
    context: {
      siemSplunkUrl: 'https://splunk.example.com:8089',
      siemSplunkSecretArn: 'arn:aws:secretsmanager:us-east-1:111111111111:secret:sis-acme-splunk-AbCdEf',
    },
  },
  {
    label: '`dashboard=false` (no tenant dashboard: an account with many tenants keeps one of its own)',
    context: { dashboard: 'false' },
  },
];

function parseArgs(argv: string[]): { context: Record<string, unknown>; template?: string; print: boolean } {
  const context: Record<string, unknown> = {};
  let template: string | undefined;
  let print = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-c' || arg === '--context') {
      const [key, ...rest] = String(argv[++i] ?? '').split('=');
      if (key) context[key] = rest.join('=');
    } else if (arg === '--template') template = argv[++i];
    else if (arg === '--print') print = true;
  }
  return { context, ...(template ? { template } : {}), print };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const tenant = String(args.context.tenant ?? 'acme');
  const template = args.template
    ? (JSON.parse(readFileSync(args.template, 'utf8')) as CostTemplate)
    : synthesizeTemplate(args.context);
  const base = idleCostReport(template);
  const usage = usageCostModel(template, tenant);
  if (args.print || args.template || Object.keys(args.context).length) {
    for (const line of base.lines)
      console.log(`${usd(line.monthlyUsd).padStart(8)}  ${line.what}  (${line.logicalId})`);
    console.log(
      `idle per month: ${usd(base.totalMonthlyUsd)} (${usd(withoutDashboard(base))} without the dashboard)`,
    );
    console.log(
      `per 1,000 plugin calls: ${usd(usage.perThousandCallsUsd)}; per investigation: ${usd(usage.perInvestigationUsd)}`,
    );
    return;
  }
  const variants = PRICED_VARIANTS.map((v) => ({
    label: v.label,
    report: idleCostReport(synthesizeTemplate(v.context)),
  }));
  const path = join(PROJECT_ROOT, 'docs', 'cost.md');
  const section = renderCostSection(base, usage, variants);
  writeFileSync(path, replaceGeneratedSection(readFileSync(path, 'utf8'), section));
  console.log(
    `docs/cost.md updated: idle ${usd(base.totalMonthlyUsd)}/month (${usd(withoutDashboard(base))} without the dashboard), ${usd(usage.perThousandCallsUsd)} per 1,000 calls, ${usd(usage.perInvestigationUsd)} per investigation`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
