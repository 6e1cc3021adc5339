import { beforeAll, describe, expect, it } from 'vitest';
import { dependenciesOf, synthTenantStack, type TemplateJson } from '../../support/synth';

/**
 * CloudFormation rejects a template whose resources reference each other in a circle, but `cdk synth`
 * does not check that. Key administration gets the usage plan's ID, and the usage plan depends on the
 * stage, deployment and methods, so the methods must not depend on the functions.
 */
let template: TemplateJson;

beforeAll(() => {
  template = synthTenantStack({ authorizerCacheTtlSeconds: 300 }).template.toJSON() as TemplateJson;
});

function dependencyGraph(t: TemplateJson): Map<string, Set<string>> {
  const ids = new Set(Object.keys(t.Resources));
  return new Map(Object.entries(t.Resources).map(([id, resource]) => [id, dependenciesOf(resource, ids)]));
}

function findCycle(graph: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'visiting') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'visiting');
    stack.push(id);
    for (const next of graph.get(id) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const id of graph.keys()) {
    const cycle = visit(id);
    if (cycle) return cycle;
  }
  return undefined;
}

function reaches(graph: Map<string, Set<string>>, from: string, to: string): boolean {
  const seen = new Set<string>();
  const pending = [from];
  while (pending.length) {
    const id = pending.pop() as string;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    pending.push(...(graph.get(id) ?? []));
  }
  return false;
}

describe('tenant stack dependencies', () => {
  it('has no reference cycle between resources', () => {
    expect(findCycle(dependencyGraph(template))).toBeUndefined();
  });

  it('detects a cycle when one is there (the check itself can fail)', () => {
    expect(
      findCycle(
        new Map([
          ['A', new Set(['B'])],
          ['B', new Set(['A'])],
        ]),
      ),
    ).toEqual(['A', 'B', 'A']);
  });

  it('keeps the deployment independent of the route functions, so any function may be given the API IDs', () => {
    const graph = dependencyGraph(template);
    const [deployment] =
      Object.entries(template.Resources).find(([, r]) => r.Type === 'AWS::ApiGateway::Deployment') ?? [];
    const routeFunctions = Object.entries(template.Resources)
      .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
      // Authorizers are part of the API by design (API key and console sign-in).
      .filter(
        ([, r]) =>
          !['sis-test-authorizer', 'sis-test-console-authorizer'].includes(String(r.Properties.FunctionName)),
      )
      .map(([id]) => id);
    expect(deployment).toBeDefined();
    for (const fn of routeFunctions) expect(reaches(graph, deployment as string, fn), fn).toBe(false);
  });
});
