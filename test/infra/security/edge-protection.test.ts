import { beforeAll, describe, expect, it } from 'vitest';
import { BODY_RULES_COUNTED, MANAGED_RULE_GROUPS } from '../../../infra/constructs/waf';
import { resourcesOfType, synthTenantStack, type TemplateJson } from '../../support/synth';

/** The optional pieces in front of the stage: WAFv2 web ACL and custom domain. Off by default. */
const CERTIFICATE = 'arn:aws:acm:eu-west-1:111111111111:certificate/0c9a3a57-7b64-4f0e-9d0b-3c5f3c2b1a00';

let plain: TemplateJson;
let edged: TemplateJson;

beforeAll(() => {
  plain = synthTenantStack().template.toJSON() as TemplateJson;
  edged = synthTenantStack({
    enableWaf: 'true',
    wafRateLimitPerIp: '500',
    customDomainName: 'sis.example.com',
    customDomainCertificateArn: CERTIFICATE,
  }).template.toJSON() as TemplateJson;
});

interface Rule {
  Name: string;
  Priority: number;
  Action?: { Block?: { CustomResponse?: { ResponseCode: number } } };
  OverrideAction?: unknown;
  Statement: {
    RateBasedStatement?: { AggregateKeyType: string; Limit: number; EvaluationWindowSec?: number };
    ManagedRuleGroupStatement?: {
      VendorName: string;
      Name: string;
      RuleActionOverrides?: { Name: string; ActionToUse: unknown }[];
    };
  };
}

describe('WAF', () => {
  it('is absent unless enableWaf is set (it costs about $8 a month at idle)', () => {
    expect(resourcesOfType(plain, 'AWS::WAFv2::WebACL').size).toBe(0);
    expect(resourcesOfType(plain, 'AWS::WAFv2::WebACLAssociation').size).toBe(0);
  });

  it('rate-limits per source IP first, then applies the AWS common and known-bad-inputs rule groups', () => {
    const [acl] = [...resourcesOfType(edged, 'AWS::WAFv2::WebACL').values()];
    expect(acl?.Properties.Scope).toBe('REGIONAL');
    expect(acl?.Properties.DefaultAction).toEqual({ Allow: {} });
    const rules = [...((acl?.Properties.Rules ?? []) as Rule[])].sort((a, b) => a.Priority - b.Priority);
    expect(rules[0]?.Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'IP',
      Limit: 500,
      EvaluationWindowSec: 300,
    });
    expect(rules[0]?.Action?.Block?.CustomResponse?.ResponseCode).toBe(429);
    expect(rules.slice(1).map((r) => r.Statement.ManagedRuleGroupStatement?.Name)).toEqual([
      ...MANAGED_RULE_GROUPS,
    ]);
    for (const rule of rules.slice(1)) expect(rule.OverrideAction, rule.Name).toEqual({ None: {} });
  });

  it('counts, not blocks, the body rules: ingested incidents legitimately carry attack strings and up to 1 MiB', () => {
    const [acl] = [...resourcesOfType(edged, 'AWS::WAFv2::WebACL').values()];
    const common = ((acl?.Properties.Rules ?? []) as Rule[]).find(
      (r) => r.Statement.ManagedRuleGroupStatement?.Name === 'AWSManagedRulesCommonRuleSet',
    );
    const overrides = common?.Statement.ManagedRuleGroupStatement?.RuleActionOverrides ?? [];
    expect(overrides.map((o) => o.Name).sort()).toEqual([...BODY_RULES_COUNTED].sort());
    for (const o of overrides) expect(o.ActionToUse).toEqual({ Count: {} });
  });

  it('answers a rate-limited caller with the contract error body', () => {
    const [acl] = [...resourcesOfType(edged, 'AWS::WAFv2::WebACL').values()];
    const bodies = acl?.Properties.CustomResponseBodies as Record<
      string,
      { Content: string; ContentType: string }
    >;
    const [body] = Object.values(bodies);
    expect(body?.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body?.Content ?? '{}')).toMatchObject({ error: { code: 'rate_limited' } });
  });

  it('is associated with the API stage', () => {
    const [association] = [...resourcesOfType(edged, 'AWS::WAFv2::WebACLAssociation').values()];
    const [stageId] = [...resourcesOfType(edged, 'AWS::ApiGateway::Stage').keys()];
    const [aclId] = [...resourcesOfType(edged, 'AWS::WAFv2::WebACL').keys()];
    expect(JSON.stringify(association?.Properties.ResourceArn)).toContain(`{"Ref":"${stageId}"}`);
    expect(JSON.stringify(association?.Properties.ResourceArn)).toContain('/restapis/');
    expect(association?.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
  });
});

describe('custom domain', () => {
  it('serves the stage at the domain root over TLS 1.2, and the functions build links with it', () => {
    expect(resourcesOfType(plain, 'AWS::ApiGateway::DomainName').size).toBe(0);
    const [domain] = [...resourcesOfType(edged, 'AWS::ApiGateway::DomainName').values()];
    expect(domain?.Properties).toMatchObject({
      DomainName: 'sis.example.com',
      RegionalCertificateArn: CERTIFICATE,
      SecurityPolicy: 'TLS_1_2',
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
    const [mapping] = [...resourcesOfType(edged, 'AWS::ApiGateway::BasePathMapping').values()];
    expect(mapping?.Properties.BasePath).toBeUndefined();
    for (const fn of resourcesOfType(edged, 'AWS::Lambda::Function').values()) {
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env.SIS_PUBLIC_URL).toBe('https://sis.example.com');
    }
    const outputs = (edged as { Outputs?: Record<string, unknown> }).Outputs ?? {};
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['CustomDomainTarget', 'CustomDomainZone']));
  });
});
