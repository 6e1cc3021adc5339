import { LIMITS } from './limits';
import { type CfnTemplate, render, resourcesOf } from './template-json';

export interface Finding {
  check: string;
  message: string;
}

/** The documented limits of infra-wide counts, sizes and names (limits.ts). */
export function limitFindings(template: CfnTemplate, templateText: string): Finding[] {
  const found: Finding[] = [];
  const over = (check: string, actual: number, limit: number, what: string) => {
    if (actual > limit) found.push({ check, message: `${what}: ${actual} > ${limit}` });
  };
  over(
    'limit:resources',
    Object.keys(template.Resources).length,
    LIMITS.resources,
    'resources in the template',
  );
  over(
    'limit:outputs',
    Object.keys(template.Outputs ?? {}).length,
    LIMITS.outputs,
    'outputs in the template',
  );
  over('limit:template-size', Buffer.byteLength(templateText), LIMITS.templateBytes, 'template bytes');
  for (const [id, fn] of resourcesOf(template, 'AWS::Lambda::Function')) {
    const name = render(fn.Properties?.FunctionName ?? '');
    over('limit:function-name', name.length, LIMITS.functionName, `${id} FunctionName ${name}`);
    const variables =
      (fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
    // Lambda counts keys and values as sent; references are rendered to their longest plausible form.
    const size = Object.entries(variables).reduce(
      (sum, [key, value]) =>
        sum +
        Buffer.byteLength(key) +
        Buffer.byteLength(render(value).replace(/<ref:[^>]+>/g, 'x'.repeat(128))),
      0,
    );
    over('limit:environment', size, LIMITS.environmentBytes, `${id} environment bytes`);
  }
  for (const [id, role] of resourcesOf(template, 'AWS::IAM::Role')) {
    const name = render(role.Properties?.RoleName ?? '');
    over('limit:role-name', name.length, LIMITS.roleName, `${id} RoleName ${name}`);
    const inline = (role.Properties?.Policies as { PolicyDocument: unknown }[] | undefined) ?? [];
    const chars = inline.reduce((sum, policy) => sum + policyChars(policy.PolicyDocument), 0);
    over('limit:role-inline-policy', chars, LIMITS.roleInlinePolicyChars, `${id} inline policy characters`);
  }
  // An AWS::IAM::Policy is inline on its roles: it counts towards each role's inline total; checked
  // alone here against the same quota, and managed policies against theirs.
  const policyQuotas = [
    ['AWS::IAM::Policy', 'limit:role-inline-policy', LIMITS.roleInlinePolicyChars],
    ['AWS::IAM::ManagedPolicy', 'limit:managed-policy', LIMITS.managedPolicyChars],
  ] as const;
  for (const [type, check, limit] of policyQuotas)
    for (const [id, policy] of resourcesOf(template, type))
      over(check, policyChars(policy.Properties?.PolicyDocument), limit, `${id} policy characters`);
  for (const [id] of resourcesOf(template, 'AWS::ApiGateway::RestApi')) {
    const resources = resourcesOf(template, 'AWS::ApiGateway::Resource').filter(([, resource]) =>
      JSON.stringify(resource.Properties?.RestApiId).includes(`"${id}"`),
    ).length;
    over(
      'limit:api-resources',
      resources + 1,
      LIMITS.apiResources,
      `${id} API Gateway resources (root included)`,
    );
  }
  return found;
}

/** IAM counts policy characters without whitespace; references are rendered to ARN-long stand-ins. */
function policyChars(document: unknown): number {
  return JSON.stringify(document, (_key, value) =>
    value &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    ('Ref' in value || 'Fn::GetAtt' in value || 'Fn::Join' in value || 'Fn::Sub' in value)
      ? render(value).replace(/<ref:[^>]+>/g, 'x'.repeat(64))
      : value,
  ).length;
}
