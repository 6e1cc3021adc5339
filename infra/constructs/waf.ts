import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { tenantPrefix } from '../naming';

export interface ApiWebAclProps {
  tenant: string;
  /** ARN of the API Gateway stage to protect. */
  stageArn: string;
  /** Requests one source IP may send in any 5-minute window. */
  rateLimitPerIp: number;
}

/** AWS managed rule groups of the web ACL, in evaluation order after the rate rule. */
export const MANAGED_RULE_GROUPS = [
  'AWSManagedRulesCommonRuleSet',
  'AWSManagedRulesKnownBadInputsRuleSet',
] as const;

/**
 * Rules of the Common Rule Set that inspect the request body, switched to Count. This service's
 * bodies legitimately carry attack indicators (an ingested incident describes an XSS payload, an LFI
 * path, an SSRF to the metadata address) and up to 1 MiB of them, where the rule set blocks bodies
 * over 8 KB. The URI, query and header rules keep blocking.
 */
export const BODY_RULES_COUNTED = [
  'SizeRestrictions_BODY',
  'CrossSiteScripting_BODY',
  'GenericLFI_BODY',
  'GenericRFI_BODY',
  'EC2MetaDataSSRF_BODY',
] as const;

const RATE_LIMITED_BODY = 'rate-limited';

/** Metrics and sampled requests for the web ACL or one of its rules, under `metricName`. */
function visibility(metricName: string): CfnWebACL.VisibilityConfigProperty {
  return { cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName };
}

/** The 429 body a rate-limited address gets: the contract's error shape; WAF has no request ID to give. */
const CUSTOM_RESPONSE_BODIES = {
  [RATE_LIMITED_BODY]: {
    contentType: 'APPLICATION_JSON',
    content: JSON.stringify({
      error: {
        code: 'rate_limited',
        message: 'Too many requests from this address. Retry later.',
        request_id: '',
      },
    }),
  },
};

/** The first rule: more than `limit` requests from one IP in 5 minutes get a 429 with `retry-after`. */
function rateLimitRule(name: string, limit: number): CfnWebACL.RuleProperty {
  return {
    name: 'RateLimitPerIp',
    priority: 0,
    statement: {
      rateBasedStatement: { aggregateKeyType: 'IP', limit, evaluationWindowSec: 300 },
    },
    action: {
      block: {
        customResponse: {
          responseCode: 429,
          customResponseBodyKey: RATE_LIMITED_BODY,
          responseHeaders: [{ name: 'retry-after', value: '300' }],
        },
      },
    },
    visibilityConfig: visibility(`${name}-rate-per-ip`),
  };
}

/** The AWS managed rule groups after the rate rule, the Common Rule Set's body rules counted. */
function managedRuleGroupRules(name: string): CfnWebACL.RuleProperty[] {
  return MANAGED_RULE_GROUPS.map((group, index) => ({
    name: group,
    priority: index + 1,
    overrideAction: { none: {} },
    statement: {
      managedRuleGroupStatement: {
        vendorName: 'AWS',
        name: group,
        ...(group === 'AWSManagedRulesCommonRuleSet'
          ? {
              ruleActionOverrides: BODY_RULES_COUNTED.map((rule) => ({
                name: rule,
                actionToUse: { count: {} },
              })),
            }
          : {}),
      },
    },
    visibilityConfig: visibility(`${name}-${group}`),
  }));
}

/**
 * Optional WAFv2 web ACL on the API stage (context `enableWaf=true`): a per-IP rate rule first (so a
 * flood is refused before the managed rules spend WCUs on it), then the AWS Common and Known Bad
 * Inputs rule groups. Per-key limits stay with the usage plan; this stops unauthenticated floods and
 * known exploit patterns before they reach the authorizer. Costs about $8/month at idle (web ACL +
 * three rules) plus $0.60 per million requests; see docs/cost.md.
 */
export class ApiWebAcl extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiWebAclProps) {
    super(scope, id);
    const name = tenantPrefix(props.tenant);
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name,
      description: `Security Investigation Service, tenant ${props.tenant}`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(name),
      customResponseBodies: CUSTOM_RESPONSE_BODIES,
      rules: [rateLimitRule(name, props.rateLimitPerIp), ...managedRuleGroupRules(name)],
    });
    new CfnWebACLAssociation(this, 'StageAssociation', {
      resourceArn: props.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }
}
