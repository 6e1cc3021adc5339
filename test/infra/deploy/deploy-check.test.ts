import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findCfnLint } from '../../../scripts/check-deploy/cfn-lint';
import { EVERYTHING } from '../../../scripts/check-deploy/combinations';
import { type CombinationResult, checkAssemblies } from '../../../scripts/check-deploy/run';
import type { CfnTemplate } from '../../../scripts/check-deploy/template-json';
import { type SynthResult, synthTenantStack, type TemplateJson } from '../../support/synth';

/**
 * The fast subset of `npm run check:deploy` (docs/deploy.md): the shared default stack of
 * test/support/synth.ts and ONE "everything on" synth (every feature, the longest tenant, a pinned
 * region with a Bedrock inference profile: issue 33's failures 1 and 2), each with its prerequisites
 * stack, through asl-validator, the IAM lint, the AWS limits and the deploy-time refusals. cfn-lint
 * (~20 s of CPU per tenant template) runs once, on the everything-on templates, after this file
 * checks that they hold every resource type and property the default template uses; the 14
 * combinations, each linted, are `npm run check:deploy`. Without cfn-lint this fails with the
 * install instruction: a missing linter never passes.
 */
describe('deploy check (default and everything on)', () => {
  const entry = (name: string, synth: SynthResult, lint: boolean) => {
    const result: CombinationResult = {
      combination: { name, covers: name, context: {} },
      findings: [],
      seconds: 0,
      stateMachines: [],
    };
    return { result, dir: synth.assembly.directory, files: synth.assembly.templateFiles, lint };
  };
  const shapes = (template: TemplateJson) =>
    new Set(
      Object.values(template.Resources).flatMap((resource) =>
        Object.keys(resource.Properties ?? {}).map((key) => `${resource.Type}.${key}`),
      ),
    );

  it('finds cfn-lint on the PATH or under pyenv', () => {
    expect(findCfnLint(), 'cfn-lint is required: pip install cfn-lint==1.51.0').toBeDefined();
  });

  it('passes every check for both combinations', async () => {
    const defaults = synthTenantStack();
    const everything = synthTenantStack(EVERYTHING.context);
    const everythingShapes = shapes(everything.template.toJSON() as TemplateJson);
    const uncovered = [...shapes(defaults.template.toJSON() as TemplateJson)].filter(
      (shape) => !everythingShapes.has(shape),
    );
    expect(
      uncovered,
      'the everything-on template must use every shape cfn-lint skips in the default',
    ).toEqual([]);

    const assemblies = [entry('default', defaults, false), entry('everything', everything, true)];
    const linter: { suppressed?: Map<string, number> } = {};
    await checkAssemblies(assemblies, linter);
    // cfn-lint really read the state machines: its one known false positive was met and suppressed.
    expect([...(linter.suppressed?.values() ?? [])].every((hits) => hits > 0)).toBe(true);
    for (const { result, files } of assemblies) {
      const stacks = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as CfnTemplate);
      expect(
        stacks.some((t) => Object.values(t.Resources).some((r) => r.Type === 'AWS::ApiGateway::Account')),
      ).toBe(true); // the tenant and its account prerequisites
      expect(result.stateMachines).toHaveLength(2);
    }
    const findings = assemblies.flatMap(({ result }) =>
      result.findings.map((f) => `${result.combination.name} ${f.check}: ${f.message}`),
    );
    expect(findings).toEqual([]);
  });
});
