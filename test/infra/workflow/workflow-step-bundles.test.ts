import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { functionEntry, PROJECT_ROOT } from '../../../infra/constructs/service-function';
import { inputsInOutput, LAMBDA_BUNDLE_OPTIONS } from '../../support/lambda-bundle';

/**
 * Each workflow step Lambda carries its own step's code and not the rest of the investigation
 * (issue #17: every bundle within 400 KB unless its own work needs more). Modules are kept by what
 * they import at the top, so one import of a module that plans or runs tools put every tool, the
 * connector declarations and the brand list into the failure write-back. Planning (MarkActive) and
 * the analyst's turn read what the tools are from their declarations (tool-catalogue.ts), not their
 * code. This names what each step must not carry, read from esbuild's metafile with the construct's
 * settings.
 */
const TOOL_CODE = /^shared\/domain\/investigation\/(tools\/(tool-(?!catalogue)[a-z-]+|tools)|engine)\.ts$/;
const CONNECTORS = /^shared\/domain\/intel\/(connectors|mappers|mapping|mappers-[a-z-]+)\.ts$/;
const CONNECTOR_MAPPERS = /^shared\/domain\/intel\/(mappers|mapping|mappers-[a-z-]+)\.ts$/;
/**
 * The connectors' runtime: the cache/quota/circuit store, the HTTP client, the lookups and the
 * Secrets Manager client for their keys. Only step-run-intel carries it (with CONNECTORS), and
 * step-run-tool only the built-in tools with the offline data reader (OFFLINE_READER).
 */
const CONNECTOR_RUNTIME =
  /^(shared\/(services\/intel\/intel-lookups|store\/intel-repository|platform\/intel-(http|secret))\.ts|node_modules\/@aws-sdk\/client-secrets-manager\/)/;
const CONNECTOR_TOOLS = /^shared\/domain\/investigation\/tools\/tool-intel\.ts$/;
const OFFLINE_READER = /^(shared\/platform\/offline-intel(-build)?\.ts|node_modules\/mmdb-lib\/)/;
/** The built-in tools' code (the connector tools are CONNECTOR_TOOLS). */
const BUILT_IN_TOOL_CODE =
  /^shared\/domain\/investigation\/tools\/(tool-(?!catalogue|intel)[a-z-]+|built-in-tools)\.ts$/;
/**
 * Summaries and recommendations: a run that ends without a report says only its persona's ending, and
 * the analyst turn grounds the model on the report's score, verdict and findings, not its wording.
 */
const PERSONA_WORDING = /^shared\/domain\/investigation\/report\/personas\.ts$/;
const MODEL_CLIENT =
  /^(shared\/platform\/bedrock-analyst\.ts|node_modules\/@aws-sdk\/client-bedrock-runtime\/)/;

const NOT_CARRIED: Record<string, RegExp[]> = {
  'step-mark-failed': [TOOL_CODE, CONNECTORS, MODEL_CLIENT, PERSONA_WORDING],
  'workflow-status-change': [TOOL_CODE, CONNECTORS, MODEL_CLIENT, PERSONA_WORDING],
  'sweep-stale-sessions': [TOOL_CODE, CONNECTORS, MODEL_CLIENT, PERSONA_WORDING],
  'step-persist': [TOOL_CODE, CONNECTORS, MODEL_CLIENT, PERSONA_WORDING],
  'step-assess': [TOOL_CODE, CONNECTORS, MODEL_CLIENT],
  'step-mark-active': [TOOL_CODE, CONNECTOR_MAPPERS, MODEL_CLIENT],
  'step-analyst-turn': [TOOL_CODE, CONNECTOR_MAPPERS, PERSONA_WORDING],
  'step-run-tool': [CONNECTORS, CONNECTOR_TOOLS, CONNECTOR_RUNTIME, MODEL_CLIENT, PERSONA_WORDING],
  'step-run-intel': [BUILT_IN_TOOL_CODE, OFFLINE_READER, MODEL_CLIENT, PERSONA_WORDING],
};

async function bundledInputs(names: string[]): Promise<Record<string, string[]>> {
  const result = await build({
    entryPoints: Object.fromEntries(names.map((name) => [name, functionEntry(name)])),
    outdir: join(PROJECT_ROOT, '.cache', 'workflow-step-bundles'),
    write: false,
    ...LAMBDA_BUNDLE_OPTIONS,
  });
  const outputs = Object.values(result.metafile.outputs).filter((o) => o.entryPoint);
  return Object.fromEntries(
    outputs.map((output) => [output.entryPoint!.split('/').at(-2)!, inputsInOutput(output)]),
  );
}

describe('what the workflow step bundles carry', () => {
  it('leaves out the code of the steps a function does not run', async () => {
    const inputs = await bundledInputs(Object.keys(NOT_CARRIED));
    expect(Object.keys(inputs).sort()).toEqual(Object.keys(NOT_CARRIED).sort());
    const carried = Object.entries(NOT_CARRIED).flatMap(([name, patterns]) =>
      (inputs[name] ?? [])
        .filter((path) => patterns.some((p) => p.test(path)))
        .map((path) => `${name}: ${path}`),
    );
    expect(carried).toEqual([]);
  }, 120_000);

  it('finds them where they are used (run-tool runs the built-in tools, run-intel the connectors, the analyst turn calls the model, Assess words the report)', async () => {
    const inputs = await bundledInputs([
      'step-run-tool',
      'step-run-intel',
      'step-analyst-turn',
      'step-assess',
    ]);
    expect(inputs['step-run-tool']!.filter((path) => BUILT_IN_TOOL_CODE.test(path)).length).toBeGreaterThan(
      4,
    );
    expect(inputs['step-run-tool']!.some((path) => OFFLINE_READER.test(path))).toBe(true);
    expect(inputs['step-run-intel']!.some((path) => CONNECTOR_MAPPERS.test(path))).toBe(true);
    expect(inputs['step-run-intel']!.some((path) => CONNECTOR_TOOLS.test(path))).toBe(true);
    const runtime = inputs['step-run-intel']!.filter((path) => CONNECTOR_RUNTIME.test(path));
    expect(runtime.some((path) => path.includes('client-secrets-manager'))).toBe(true);
    // The lookups, their store, the HTTP client and the secret reader.
    expect(runtime.filter((path) => path.startsWith('shared/'))).toHaveLength(4);
    expect(inputs['step-analyst-turn']!.some((path) => MODEL_CLIENT.test(path))).toBe(true);
    expect(inputs['step-assess']!.some((path) => PERSONA_WORDING.test(path))).toBe(true);
  }, 120_000);
});
