import { cognitoReservedWordIn } from '../../infra/naming';
import { isCognitoCallbackBase } from '../../infra/settings/context-values';
import type { Finding } from './limit-checks';
import { type CfnTemplate, render, resourcesOf } from './template-json';

/**
 * What CloudFormation accepts in a template but the service refuses at deploy time, found offline.
 * `templates` is every stack of the app: a prerequisite may live in a stack of its own.
 */
export function deployRefusalFindings(template: CfnTemplate, templates: readonly CfnTemplate[]): Finding[] {
  return [
    ...gatewayLoggingRole(template, templates),
    ...cognitoDomains(template),
    ...cognitoCallbacks(template),
  ];
}

/**
 * API Gateway writes access and execution logs to CloudWatch only through the account-level role
 * (AWS::ApiGateway::Account, one per account and region); without it the stage fails with "CloudWatch
 * Logs role ARN must be set in account settings to enable logging".
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-logging.html
 */
function gatewayLoggingRole(template: CfnTemplate, templates: readonly CfnTemplate[]): Finding[] {
  const logging = resourcesOf(template, 'AWS::ApiGateway::Stage').filter(([, stage]) => {
    const methods =
      (stage.Properties?.MethodSettings as { LoggingLevel?: string; DataTraceEnabled?: boolean }[]) ?? [];
    return (
      !!stage.Properties?.AccessLogSetting ||
      methods.some((m) => (m.LoggingLevel && m.LoggingLevel !== 'OFF') || m.DataTraceEnabled)
    );
  });
  const roleSet = templates.some((t) =>
    resourcesOf(t, 'AWS::ApiGateway::Account').some(([, account]) => !!account.Properties?.CloudWatchRoleArn),
  );
  if (!logging.length || roleSet) return [];
  return logging.map(([id]) => ({
    check: 'deploy:apigateway-cloudwatch-role',
    message: `${id} logs to CloudWatch, but no stack of the app sets the account's API Gateway CloudWatch Logs role (AWS::ApiGateway::Account CloudWatchRoleArn): a fresh account or region refuses the stage (setting: the account prerequisite; the stack turns @aws-cdk/aws-apigateway:disableCloudWatchRole on)`,
  }));
}

/**
 * Cognito domain prefixes: lowercase letters, digits and hyphens, 1-63 characters, not starting or
 * ending with a hyphen, and "You can't use the text aws, amazon, or cognito in the domain prefix."
 * https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pools-assign-domain-prefix.html
 */
function cognitoDomains(template: CfnTemplate): Finding[] {
  return resourcesOf(template, 'AWS::Cognito::UserPoolDomain').flatMap(([id, domain]) => {
    const prefix = render(domain.Properties?.Domain);
    if (prefix.includes('.')) return []; // a custom domain, not a prefix
    const reserved = cognitoReservedWordIn(prefix);
    const shape = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(prefix);
    if (!reserved && shape) return [];
    return [
      {
        check: 'deploy:cognito-domain-prefix',
        message: `${id} domain prefix "${prefix}" ${reserved ? `contains the reserved word "${reserved}"` : 'is not 1-63 lowercase letters, digits, dashes'}: Cognito refuses it (settings: tenant, consoleDomainPrefix)`,
      },
    ];
  });
}

/**
 * Cognito app clients: "A redirect URI must: Be an absolute URI... Require HTTPS over HTTP except for
 * http://localhost for testing purposes only." The same holds for sign-out URLs.
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_CreateUserPoolClient.html
 */
function cognitoCallbacks(template: CfnTemplate): Finding[] {
  return resourcesOf(template, 'AWS::Cognito::UserPoolClient').flatMap(([id, client]) =>
    (['CallbackURLs', 'LogoutURLs'] as const).flatMap((property) =>
      ((client.Properties?.[property] as unknown[]) ?? [])
        .map(render)
        // A rendered stage URL holds `<ref:…>` placeholders, which URL cannot parse: https is enough there.
        .filter((url) => !url.startsWith('https://') && !isCognitoCallbackBase(url))
        .map((url) => ({
          check: 'deploy:cognito-callback-https',
          message: `${id} ${property} ${url} is not https: Cognito accepts http only for localhost (setting: publicUrl)`,
        })),
    ),
  );
}
