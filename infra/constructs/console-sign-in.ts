import { Duration, RemovalPolicy, SecretValue, Stack, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  CfnManagedLoginBranding,
  FeaturePlan,
  ManagedLoginVersion,
  Mfa,
  OAuthScope,
  ProviderAttribute,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
  UserPoolGroup,
  UserPoolIdentityProviderOidc,
  UserPoolIdentityProviderSaml,
  UserPoolIdentityProviderSamlMetadata,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { ADMIN_GROUP, ANALYST_GROUP } from '../../shared/domain/keys/console-identity';
import { tenantResourceName } from '../naming';
import type { ConsoleIdentityProviderSetting } from '../settings';

export interface ConsoleSignInProps {
  tenant: string;
  /** The API's public URL (stage included); the callback is `<publicUrl>/auth/callback`. */
  publicUrl: string;
  /** Globally unique per region: `https://<prefix>.auth.<region>.amazoncognito.com`. */
  domainPrefix: string;
  identityProvider?: ConsoleIdentityProviderSetting | undefined;
  removalPolicy: RemovalPolicy;
}

/** The tenant's console user pool (`UserPool` in `scope`): no self sign-up, strong passwords, optional TOTP. */
function addUserPool(scope: Construct, tenant: string, removalPolicy: RemovalPolicy): UserPool {
  return new UserPool(scope, 'UserPool', {
    userPoolName: tenantResourceName(tenant, 'console'),
    featurePlan: FeaturePlan.ESSENTIALS,
    selfSignUpEnabled: false,
    signInAliases: { username: true, email: true },
    signInCaseSensitive: false,
    mfa: Mfa.OPTIONAL,
    mfaSecondFactor: { otp: true, sms: false },
    passwordPolicy: {
      minLength: 14,
      requireLowercase: true,
      requireUppercase: true,
      requireDigits: true,
      requireSymbols: true,
      tempPasswordValidity: Duration.days(3),
    },
    accountRecovery: AccountRecovery.EMAIL_ONLY,
    deletionProtection: removalPolicy === RemovalPolicy.RETAIN,
    removalPolicy,
  });
}

/** The findings the pool's settings answer on purpose. */
function acknowledgeUserPoolFindings(userPool: UserPool): void {
  Validations.of(userPool).acknowledge(
    {
      id: 'AwsSolutions-COG2',
      reason:
        'MFA is optional (TOTP) so a federated tenant can rely on its own identity provider MFA; docs/console.md asks local-user tenants to enable it per user.',
    },
    {
      id: 'AwsSolutions-COG8',
      reason:
        'Threat protection needs the Plus feature plan (about $0.02 per active user per month); the console pool is on Essentials for managed login, with no self sign-up.',
    },
  );
}

/**
 * People's sign-in to the web console: one Cognito user pool per tenant (Essentials plan, managed
 * login on a Cognito domain), a public app client (authorization code + PKCE, no secret) whose
 * callback is the console's `/auth/callback`, the groups `admins` and `analysts`, and optionally the
 * tenant's own identity provider (OIDC, e.g. Entra ID, or SAML). No self sign-up: administrators
 * create users or federate them. An empty pool costs nothing at idle.
 */
export class ConsoleSignIn extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  readonly domain: UserPoolDomain;
  /** Environment of the console authorizer, shell and settings functions (shared/config.ts). */
  readonly environment: Record<string, string>;

  constructor(scope: Construct, id: string, props: ConsoleSignInProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.userPool = addUserPool(this, props.tenant, props.removalPolicy);

    const providers = [UserPoolClientIdentityProvider.COGNITO];
    const federation = this.addIdentityProvider(props.identityProvider);
    if (federation) providers.push(UserPoolClientIdentityProvider.custom(federation.providerName));
    this.client = this.addConsoleClient(props, providers);
    if (federation) this.client.node.addDependency(federation);

    this.domain = this.addManagedLogin(props.domainPrefix);
    this.addGroups();

    this.environment = {
      SIS_CONSOLE_ISSUER: `https://cognito-idp.${stack.region}.${stack.urlSuffix}/${this.userPool.userPoolId}`,
      SIS_CONSOLE_USER_POOL_ID: this.userPool.userPoolId,
      SIS_CONSOLE_CLIENT_ID: this.client.userPoolClientId,
      SIS_CONSOLE_LOGIN_URL: this.domain.baseUrl(),
    };
    acknowledgeUserPoolFindings(this.userPool);
  }

  /** The public app client: authorization code + PKCE, no secret, the console's callback and sign-out pages. */
  private addConsoleClient(
    props: ConsoleSignInProps,
    providers: UserPoolClientIdentityProvider[],
  ): UserPoolClient {
    const publicUrl = props.publicUrl.replace(/\/+$/, '');
    return this.userPool.addClient('ConsoleClient', {
      userPoolClientName: tenantResourceName(props.tenant, 'console'),
      generateSecret: false,
      authFlows: {},
      preventUserExistenceErrors: true,
      supportedIdentityProviders: providers,
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        callbackUrls: [`${publicUrl}/auth/callback`],
        logoutUrls: [`${publicUrl}/signed-out`],
      },
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.hours(12),
      enableTokenRevocation: true,
    });
  }

  /** The Cognito domain with managed login, and the client's branding that makes it show a page. */
  private addManagedLogin(domainPrefix: string): UserPoolDomain {
    const domain = this.userPool.addDomain('Domain', {
      cognitoDomain: { domainPrefix },
      managedLoginVersion: ManagedLoginVersion.NEWER_MANAGED_LOGIN,
    });
    // Managed login shows a page only for clients that have a branding (Cognito's default style here).
    new CfnManagedLoginBranding(this, 'ManagedLoginBranding', {
      userPoolId: this.userPool.userPoolId,
      clientId: this.client.userPoolClientId,
      useCognitoProvidedValues: true,
    }).node.addDependency(domain);
    return domain;
  }

  /** The groups the console authorizes by: `admins` before `analysts`. */
  private addGroups(): void {
    new UserPoolGroup(this, 'AdminsGroup', {
      userPool: this.userPool,
      groupName: ADMIN_GROUP,
      description: 'Console administrators: everything analysts do, and API key administration',
      precedence: 0,
    });
    new UserPoolGroup(this, 'AnalystsGroup', {
      userPool: this.userPool,
      groupName: ANALYST_GROUP,
      description: 'Console analysts: every session, incident and the graph of the tenant',
      precedence: 1,
    });
  }

  private addIdentityProvider(setting: ConsoleIdentityProviderSetting | undefined) {
    if (!setting) return undefined;
    const attributeMapping = { email: ProviderAttribute.other('email') };
    if (setting.type === 'oidc') {
      return new UserPoolIdentityProviderOidc(this, 'OidcProvider', {
        userPool: this.userPool,
        name: setting.name,
        issuerUrl: setting.issuerUrl,
        clientId: setting.clientId,
        // A CloudFormation dynamic reference: the secret is read at deploy time, never in the template.
        clientSecret: SecretValue.secretsManager(setting.clientSecretArn).unsafeUnwrap(),
        scopes: ['openid', 'email', 'profile'],
        attributeMapping,
      });
    }
    return new UserPoolIdentityProviderSaml(this, 'SamlProvider', {
      userPool: this.userPool,
      name: setting.name,
      metadata: UserPoolIdentityProviderSamlMetadata.url(setting.metadataUrl),
      attributeMapping: {
        email: ProviderAttribute.other('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'),
      },
    });
  }
}
