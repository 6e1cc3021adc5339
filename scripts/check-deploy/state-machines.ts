import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Finding } from './limit-checks';
import { LIMITS } from './limits';
import { type CfnTemplate, render, resourcesOf } from './template-json';

type AslValidator = (definition: unknown) => {
  isValid: boolean;
  errors: { message?: string; 'Error code'?: string }[];
};
const aslValidator = createRequire(import.meta.url)('asl-validator') as AslValidator;

/**
 * Every state machine's definition, as deployed: inline DefinitionString or the asset the CDK uploads
 * (DefinitionS3Location, in the cloud assembly), with DefinitionSubstitutions put in as ARN stand-ins.
 */
export function stateMachineFindings(
  template: CfnTemplate,
  assemblyDir: string,
): { findings: Finding[]; checked: string[] } {
  const findings: Finding[] = [];
  const checked: string[] = [];
  for (const [id, machine] of resourcesOf(template, 'AWS::StepFunctions::StateMachine')) {
    const p = machine.Properties ?? {};
    const location = p.DefinitionS3Location as { Key?: string } | undefined;
    const raw = location?.Key
      ? readFileSync(join(assemblyDir, `asset.${location.Key}`), 'utf8')
      : render(p.DefinitionString);
    const substitutions = (p.DefinitionSubstitutions as Record<string, unknown>) ?? {};
    const text = raw.replace(/\$\{([^}]+)\}/g, (whole, name: string) =>
      name in substitutions ? `arn:aws:lambda:eu-west-1:123456789012:function:${name}` : whole,
    );
    checked.push(id);
    if (Buffer.byteLength(text) > LIMITS.stateMachineDefinitionBytes) {
      findings.push({
        check: 'limit:state-machine-definition',
        message: `${id}: ${Buffer.byteLength(text)} bytes`,
      });
    }
    const result = aslValidator(JSON.parse(text));
    for (const error of result.isValid ? [] : result.errors) {
      findings.push({
        check: 'asl-validator',
        message: `${id}: ${error['Error code'] ?? ''} ${error.message ?? JSON.stringify(error)}`,
      });
    }
  }
  return { findings, checked };
}
