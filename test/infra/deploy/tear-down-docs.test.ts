import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../infra/constructs/service-function';
import { synthTenantStack, type TemplateJson } from '../../support/synth';

/**
 * Every resource the default stack leaves behind on `cdk destroy` (DeletionPolicy Retain, deletion
 * protection, S3 buckets, which CloudFormation cannot delete while they hold objects) must be named in
 * docs/operations.md's tear-down, or a re-deploy after following it fails with "already exists".
 */
const PHYSICAL_NAME_PROPERTIES = [
  'TableName',
  'QueueName',
  'LogGroupName',
  'StateMachineName',
  'UserPoolName',
  'BucketName',
];

function keptResources(template: TemplateJson): { id: string; type: string; docName: string }[] {
  return Object.entries(template.Resources)
    .filter(([, resource]) => {
      const p = resource.Properties ?? {};
      return (
        resource.DeletionPolicy?.startsWith('Retain') ||
        p.DeletionProtectionEnabled === true ||
        p.DeletionProtection === 'ACTIVE' ||
        resource.Type === 'AWS::S3::Bucket'
      );
    })
    .map(([id, resource]) => {
      const name = PHYSICAL_NAME_PROPERTIES.map((key) => resource.Properties?.[key]).find(
        (v) => typeof v === 'string',
      );
      // The docs speak of any tenant: `sis-<tenant>-…`; an unnamed resource by its construct ID.
      const docName = name ? name.replaceAll('sis-test', 'sis-<tenant>') : id.replace(/[0-9A-F]{8}$/, '');
      return { id, type: resource.Type, docName };
    });
}

function tearDownSection(): string {
  const operations = readFileSync(`${PROJECT_ROOT}/docs/operations.md`, 'utf8');
  const start = operations.indexOf('## Tear down a tenant');
  const end = operations.indexOf('\n## ', start + 1);
  return operations.slice(start, end === -1 ? undefined : end);
}

describe('tear-down documentation', () => {
  const { template } = synthTenantStack();
  const kept = keptResources(template.toJSON() as TemplateJson);

  it('finds what the stack keeps: five tables, both state machines, their log groups, the user pool, the feeds bucket', () => {
    const names = kept.map((resource) => resource.docName);
    expect(names).toEqual(
      expect.arrayContaining([
        'sis-<tenant>-intel',
        'sis-<tenant>-investigation-express',
        '/aws/vendedlogs/states/sis-<tenant>-investigation-express',
        'sis-<tenant>-console',
        'FeedsBucket',
      ]),
    );
    expect(kept.filter((resource) => resource.type === 'AWS::DynamoDB::Table')).toHaveLength(5);
  });

  it('names every kept resource in docs/operations.md "Tear down a tenant"', () => {
    const section = tearDownSection();
    const missing = kept.filter((resource) => !section.includes(resource.docName));
    expect(missing.map((m) => `${m.type} ${m.docName}`)).toEqual([]);
  });

  it('documents re-deploying a torn-down tenant', () => {
    expect(tearDownSection()).toMatch(/### Re-deploy a torn-down tenant/);
  });
});
