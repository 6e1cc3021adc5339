import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { consoleBundleCommands, PROJECT_ROOT } from '../../../infra/constructs/service-function';
import { servedPaths } from '../../../shared/api/route-types';
import { ROUTES } from '../../../shared/api/routes';
import { consoleFileLayout, readConsoleManifest } from '../../../shared/platform/console-files';
import { consoleShell } from '../../../shared/services/console/console-pages';
import { synthTenantStack, type TemplateJson } from '../../support/synth';

/**
 * The console's sign-in in the template: the tenant's user pool (Essentials, managed login, no self
 * sign-up), the public code + PKCE client whose callback is the console's, the two groups, the
 * console authorizer on exactly the console data routes (API-key authorizer elsewhere), and the
 * built console shipped inside the serving functions' assets. Synthesis runs cdk-nag: it passes only
 * with every finding acknowledged.
 */
const { template, stack } = synthTenantStack({
  consoleIdentityProvider: JSON.stringify({
    type: 'saml',
    name: 'EntraID',
    metadataUrl: 'https://login.microsoftonline.com/tenant/federationmetadata.xml',
  }),
});
const json = template.toJSON() as TemplateJson;

describe('console sign-in in the template', () => {
  it('has one user pool on the Essentials plan, without self sign-up, with a managed-login domain', () => {
    template.resourceCountIs('AWS::Cognito::UserPool', 1);
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolName: 'sis-test-console',
      UserPoolTier: 'ESSENTIALS',
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
    });
    template.hasResourceProperties('AWS::Cognito::UserPoolDomain', {
      Domain: 'sis-test-console',
      ManagedLoginVersion: 2,
    });
    template.resourceCountIs('AWS::Cognito::ManagedLoginBranding', 1);
  });

  it('has a public authorization-code client calling back to the console, and the federated provider', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: Match.arrayWith(['openid', 'email', 'profile']),
      SupportedIdentityProviders: ['COGNITO', { Ref: Match.stringLikeRegexp('SamlProvider') }],
      CallbackURLs: [Match.objectLike({ 'Fn::Join': Match.anyValue() })],
    });
    const client = Object.values(json.Resources).find((r) => r.Type === 'AWS::Cognito::UserPoolClient');
    expect(JSON.stringify(client?.Properties.CallbackURLs)).toContain('/auth/callback');
    template.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', {
      ProviderName: 'EntraID',
      ProviderType: 'SAML',
    });
  });

  it('has the groups admins and analysts', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolGroup', { GroupName: 'admins', Precedence: 0 });
    template.hasResourceProperties('AWS::Cognito::UserPoolGroup', { GroupName: 'analysts', Precedence: 1 });
  });

  it('puts the console authorizer on exactly the console data routes, keyed on Authorization', () => {
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Name: 'sis-test-console',
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: 0,
    });
    const authorizers = Object.entries(json.Resources).filter(
      ([, r]) => r.Type === 'AWS::ApiGateway::Authorizer',
    );
    const consoleAuthorizer = authorizers.find(([, r]) => r.Properties.Name === 'sis-test-console')?.[0];
    const methods = Object.values(json.Resources).filter((r) => r.Type === 'AWS::ApiGateway::Method');
    const byOperation = new Map(methods.map((m) => [String(m.Properties.OperationName), m]));
    for (const route of ROUTES) {
      const method = byOperation.get(route.operationId);
      expect(method, route.operationId).toBeDefined();
      const authorizerId = JSON.stringify(method?.Properties.AuthorizerId ?? null);
      if (route.access.kind === 'console') {
        expect(authorizerId, route.operationId).toContain(String(consoleAuthorizer));
        expect(method?.Properties.ApiKeyRequired ?? false, route.operationId).toBe(false);
      } else if (route.access.kind === 'public') {
        expect(method?.Properties.AuthorizationType, route.operationId).toBe('NONE');
      } else {
        expect(authorizerId, route.operationId).not.toContain(String(consoleAuthorizer));
      }
    }
    expect(ROUTES.filter((r) => r.access.kind === 'console').flatMap(servedPaths).length).toBeGreaterThan(10);
  });

  it('gives the console functions the pool as issuer, and the authorizer no table', () => {
    expect(stack.consoleAuthorizerFunction.functionName).toBe('sis-test-console-authorizer');
    const fn = Object.values(json.Resources).find(
      (r) =>
        r.Type === 'AWS::Lambda::Function' && r.Properties.FunctionName === 'sis-test-console-authorizer',
    );
    const env =
      (fn?.Properties.Environment as { Variables: Record<string, unknown> } | undefined)?.Variables ?? {};
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining([
        'SIS_CONSOLE_ISSUER',
        'SIS_CONSOLE_USER_POOL_ID',
        'SIS_CONSOLE_CLIENT_ID',
        'SIS_CONSOLE_LOGIN_URL',
      ]),
    );
    expect(JSON.stringify(env.SIS_CONSOLE_ISSUER)).toContain('cognito-idp.');
  });
});

describe('the built console in the serving functions', () => {
  it('copies console/dist and the shell template where the handlers look for them on Lambda', async () => {
    const outputDir = mkdtempSync(join(tmpdir(), 'sis-console-asset-'));
    for (const command of consoleBundleCommands(PROJECT_ROOT, outputDir)) {
      execFileSync('sh', ['-c', command]);
    }
    const layout = consoleFileLayout({ LAMBDA_TASK_ROOT: outputDir });
    const manifest = await readConsoleManifest(layout);
    expect(manifest['app.js']).toMatch(/^app\.[A-Z0-9]+\.js$/);
    const shell = await consoleShell(layout, 'https://abc.execute-api.eu-west-1.amazonaws.com/prod');
    expect(shell).toContain(`src="/prod/console/assets/${manifest['app.js']}"`);
  });
});
