/**
 * `npm run check:deploy [--bundle] [combination…]`: synthesises the documented setting combinations
 * (scripts/check-deploy/combinations.ts) and holds every template to cfn-lint, asl-validator, an IAM
 * lint on AWS's service reference data, the documented AWS limits and the deploy-time refusals found
 * offline. Exit 1 on any finding, naming the combination, its settings and the rule.
 */
import type { CfnLintRun } from './check-deploy/cfn-lint';
import { checkCombinations } from './check-deploy/run';

const args = process.argv.slice(2);
const started = Date.now();
const linter: Partial<CfnLintRun> = {};
const results = await checkCombinations(
  args.filter((arg) => !arg.startsWith('--')),
  { bundle: args.includes('--bundle') },
  linter,
);
console.log(`cfn-lint: ${linter.version ?? 'not run (no template synthesised or cfn-lint missing)'}`);
for (const [suppression, hits] of linter.suppressed ?? [])
  console.log(`cfn-lint suppression ${suppression}: ${hits} hit${hits === 1 ? '' : 's'}`);
let failed = 0;
for (const { combination, findings, seconds, resources, stateMachines } of results) {
  const settings = Object.entries(combination.context)
    .map(([k, v]) => `${k}=${v.length > 40 ? `${v.slice(0, 37)}…` : v}`)
    .join(' ');
  const status = findings.length ? 'FAIL' : 'ok  ';
  console.log(
    `${status} ${combination.name} (${combination.covers}; ${settings || 'defaults'}) ${seconds.toFixed(1)} s, ${resources ?? '-'} resources, ${stateMachines.length} state machines`,
  );
  for (const finding of findings) console.log(`       ${finding.check}: ${finding.message}`);
  if (findings.length) failed += 1;
}
console.log(
  `${results.length - failed} of ${results.length} combinations pass, ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
process.exit(failed ? 1 : 0);
