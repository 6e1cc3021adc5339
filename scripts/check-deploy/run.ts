import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { buildTenantApp } from '../../infra/build-app';
import { cdkJsonContext } from '../../test/support/synth';
import { type CfnLintRun, cfnLint } from './cfn-lint';
import { COMBINATIONS, type Combination } from './combinations';
import { deployRefusalFindings } from './deploy-refusals';
import { iamFindings } from './iam-lint';
import { type Finding, limitFindings } from './limit-checks';
import { LIMITS } from './limits';
import { stateMachineFindings } from './state-machines';
import type { CfnTemplate } from './template-json';

export interface CombinationResult {
  combination: Combination;
  findings: Finding[];
  seconds: number;
  stateMachines: string[];
  resources?: number;
}

export interface Synthesised {
  /** The cloud assembly directory (state machine definitions are assets there). */
  dir: string;
  /** Every stack's template file in it. */
  files: string[];
  /** False: skip cfn-lint here (the fast subset lints a template whose shapes cover this one's). */
  lint?: boolean;
}

/**
 * Synthesises each combination in-process (as test/support/synth.ts does; `cdk synth` would start a
 * process and import the CDK once per combination), then checks every template. `bundle` runs
 * esbuild for the first combination so its Lambda assets can be held to the size limits.
 */
export async function checkCombinations(
  names: readonly string[],
  options: { bundle?: boolean } = {},
  linter: Partial<Pick<CfnLintRun, 'version' | 'suppressed'>> = {},
): Promise<CombinationResult[]> {
  const chosen = COMBINATIONS.filter((c) => names.length === 0 || names.includes(c.name));
  const results: CombinationResult[] = [];
  const synthesised = new Map<CombinationResult, Synthesised>();
  const root = mkdtempSync(join(tmpdir(), 'sis-check-deploy-'));
  try {
    for (const [index, combination] of chosen.entries()) {
      const started = Date.now();
      const result: CombinationResult = { combination, findings: [], seconds: 0, stateMachines: [] };
      results.push(result);
      const dir = join(root, combination.name);
      const bundle = options.bundle && index === 0;
      try {
        const { app } = buildTenantApp({
          outdir: dir,
          context: {
            ...cdkJsonContext(),
            tenant: 'acme',
            ...(bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
            ...combination.context,
          },
        });
        const assembly = app.synth();
        synthesised.set(result, { dir, files: assembly.stacks.map((stack) => stack.templateFullPath) });
        if (bundle) result.findings.push(...assetFindings(dir));
      } catch (error) {
        result.findings.push({
          check: 'synth',
          message: String((error as Error).message)
            .split('\n')
            .slice(0, 6)
            .join(' | '),
        });
      }
      result.seconds = (Date.now() - started) / 1000;
    }
    await checkAssemblies(
      [...synthesised].map(([result, assembly]) => ({ result, ...assembly })),
      linter,
      { version: true },
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return results;
}

/**
 * Holds already synthesised assemblies to every check: ONE cfn-lint process for all their templates
 * (it starts Python and loads its schemas once), then per template the limits, the deploy-time
 * refusals, the IAM lint and the state machines. test/infra/deploy/deploy-check.test.ts passes the
 * shared synthesised stacks of test/support/synth.ts here, so `npm test` synthesises nothing new.
 */
export async function checkAssemblies(
  assemblies: readonly (Synthesised & { result: CombinationResult })[],
  linter: Partial<Pick<CfnLintRun, 'version' | 'suppressed'>> = {},
  options: { version?: boolean } = {},
): Promise<void> {
  const lint = cfnLint(
    assemblies.flatMap((a) => (a.lint === false ? [] : a.files)),
    options,
  );
  linter.version = lint.version;
  linter.suppressed = lint.suppressed;
  for (const { result, dir, files } of assemblies) {
    const templates = files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    const parsed = templates.map(({ text }) => JSON.parse(text) as CfnTemplate);
    for (const [i, { file, text }] of templates.entries()) {
      const template = parsed[i] as CfnTemplate;
      result.resources = Math.max(result.resources ?? 0, Object.keys(template.Resources).length);
      result.findings.push(...(lint.byFile.get(file) ?? []));
      result.findings.push(...limitFindings(template, text));
      result.findings.push(...deployRefusalFindings(template, parsed));
      result.findings.push(...(await iamFindings(template)));
      const machines = stateMachineFindings(template, dir);
      result.findings.push(...machines.findings);
      result.stateMachines.push(...machines.checked);
    }
  }
}

/** Each bundled Lambda asset directory, zipped as the CDK uploads it, against Lambda's package limits. */
function assetFindings(dir: string): Finding[] {
  const found: Finding[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (!entry.startsWith('asset.') || !statSync(path).isDirectory()) continue;
    const files: Record<string, Uint8Array> = {};
    let unzipped = 0;
    const walk = (folder: string, prefix: string) => {
      for (const name of readdirSync(folder)) {
        const full = join(folder, name);
        if (statSync(full).isDirectory()) walk(full, `${prefix}${name}/`);
        else {
          const bytes = readFileSync(full);
          unzipped += bytes.length;
          files[`${prefix}${name}`] = bytes;
        }
      }
    };
    walk(path, '');
    const zipped = zipSync(files, { level: 6 }).length;
    if (zipped > LIMITS.zippedAssetBytes)
      found.push({ check: 'limit:asset-zipped', message: `${entry}: ${zipped} bytes zipped` });
    if (unzipped > LIMITS.unzippedAssetBytes)
      found.push({ check: 'limit:asset-unzipped', message: `${entry}: ${unzipped} bytes unzipped` });
  }
  return found;
}
