import { readFileSync } from 'node:fs';
import { Template } from 'aws-cdk-lib/assertions';
import { buildTenantApp } from '../../infra/build-app';
import { PROJECT_ROOT } from '../../infra/constructs/service-function';
import type { PrerequisitesStack } from '../../infra/prerequisites-stack';
import type { TenantStack } from '../../infra/stack';

/** The context `cdk synth` gets from cdk.json, so tests build the same app the CLI builds. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(`${PROJECT_ROOT}/cdk.json`, 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
}

export interface SynthResult {
  template: Template;
  stack: TenantStack;
  /** The account prerequisites stack the app synthesises beside the tenant (infra/prerequisites-stack.ts). */
  prerequisites: PrerequisitesStack;
  /** The cloud assembly on disk: its directory and every stack's template file (for cfn-lint). */
  assembly: { directory: string; templateFiles: string[] };
}

/**
 * Synthesises the tenant stack as `cdk synth -c tenant=test` would, cdk-nag included, without running
 * esbuild (`aws:cdk:bundling-stacks: []`), so infra tests take seconds. Extra context overrides.
 */
export function synthTenantStack(context: Record<string, unknown> = {}): SynthResult {
  const key = JSON.stringify(context);
  let result = synthesised.get(key);
  if (!result) {
    const { app, stack, prerequisites } = buildTenantApp({
      context: { ...cdkJsonContext(), tenant: 'test', 'aws:cdk:bundling-stacks': [], ...context },
    });
    const { directory, stacks } = app.synth();
    const templateFiles = stacks.map((artifact) => artifact.templateFullPath);
    result = {
      template: Template.fromStack(stack),
      stack,
      prerequisites,
      assembly: { directory, templateFiles },
    };
    synthesised.set(key, result);
  }
  return result;
}

/**
 * One synthesis per context and test worker: the infra project shares modules between its files
 * (vitest.config.ts), and most files read the default stack, which takes seconds to build with
 * cdk-nag. Callers only read the result.
 */
const synthesised = new Map<string, SynthResult>();

export interface CfnResource {
  Type: string;
  Properties: Record<string, unknown>;
  DependsOn?: string | string[];
  DeletionPolicy?: string;
}

export interface TemplateJson {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown; Description?: string }>;
}

export function resourcesOfType(template: TemplateJson, type: string): Map<string, CfnResource> {
  return new Map(Object.entries(template.Resources).filter(([, resource]) => resource.Type === type));
}

export interface PolicyStatementJson {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

/** One IAM policy document of the template and the logical IDs of the roles it applies to. */
export interface RolePolicy {
  id: string;
  roles: string[];
  statements: PolicyStatementJson[];
}

/**
 * Every policy that grants a role something: AWS::IAM::Policy resources and the inline policies
 * of roles alike (service functions keep their grants inline in their role; CDK's own roles, such
 * as the state machine's, get a separate policy).
 */
export function rolePolicies(template: TemplateJson): RolePolicy[] {
  const found: RolePolicy[] = [];
  for (const [id, resource] of Object.entries(template.Resources)) {
    const p = resource.Properties ?? {};
    if (resource.Type === 'AWS::IAM::Policy') {
      found.push({
        id,
        roles: ((p.Roles as { Ref: string }[] | undefined) ?? []).map((role) => role.Ref),
        statements: (p.PolicyDocument as { Statement: PolicyStatementJson[] }).Statement,
      });
    }
    if (resource.Type === 'AWS::IAM::Role') {
      for (const inline of (p.Policies as
        | { PolicyName: string; PolicyDocument: { Statement: PolicyStatementJson[] } }[]
        | undefined) ?? []) {
        found.push({
          id: `${id}/${inline.PolicyName}`,
          roles: [id],
          statements: inline.PolicyDocument.Statement,
        });
      }
    }
  }
  return found;
}

/** Logical IDs a resource depends on: Ref, Fn::GetAtt, ${...} in Fn::Sub, and DependsOn. */
export function dependenciesOf(resource: CfnResource, logicalIds: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!value || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'Ref' && typeof inner === 'string' && logicalIds.has(inner)) found.add(inner);
      else if (key === 'Fn::GetAtt') {
        const target = Array.isArray(inner) ? inner[0] : String(inner).split('.')[0];
        if (typeof target === 'string' && logicalIds.has(target)) found.add(target);
      } else if (key === 'Fn::Sub') {
        const text = Array.isArray(inner) ? inner[0] : inner;
        for (const match of String(text).matchAll(/\$\{([^}.!]+)[^}]*\}/g)) {
          if (match[1] && logicalIds.has(match[1])) found.add(match[1]);
        }
        if (Array.isArray(inner)) visit(inner[1]);
      } else visit(inner);
    }
  };
  visit(resource.Properties);
  for (const id of [resource.DependsOn ?? []].flat()) found.add(id);
  return found;
}
