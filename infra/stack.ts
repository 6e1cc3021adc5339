import { CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '../shared/api/route-types';
import { ROUTES } from '../shared/api/routes';
import { intelEnvPrefix } from '../shared/domain/intel/names';
import { TABLE_IDS, TABLES } from '../shared/store/tables';
import { analystSettings } from './constructs/analyst-model-grant';
import { ConsoleSignIn } from './constructs/console-sign-in';
import { FeedRefresh } from './constructs/feed-refresh';
import { applyFunctionGrants, type GrantTargets } from './constructs/function-permissions';
import { IncidentSync, siemConnectorsFromContext } from './constructs/incident-sync';
import { InvestigationWorkflow } from './constructs/investigation-workflow';
import { Observability } from './constructs/observability';
import { ServiceApi } from './constructs/service-api';
import { ServiceFunction, type ServiceFunctionDefaults } from './constructs/service-function';
import { ServiceTables } from './constructs/service-tables';
import { ApiWebAcl } from './constructs/waf';
import { FUNCTION_GRANTS, type FunctionGrants, grantsFor } from './function-grants';
import type { TenantSettings } from './settings';
import { telemetryProfile } from './telemetry';

export const AUTHORIZER_FUNCTION = 'authorizer';
export const CONSOLE_AUTHORIZER_FUNCTION = 'console-authorizer';
/** Functions that serve the built console from their asset. */
export const CONSOLE_FILE_FUNCTIONS: ReadonlySet<string> = new Set(['console-page', 'console-asset']);
/** Functions that need the console's sign-in settings (issuer, client, login domain). */
export const CONSOLE_SIGN_IN_FUNCTIONS: ReadonlySet<string> = new Set(['console-page', 'console-config']);

export interface TenantStackProps extends StackProps {
  settings: TenantSettings;
  /** Defaults to the service's route table; tests may pass their own. */
  routes?: readonly RouteDefinition[];
  /** Defaults to FUNCTION_GRANTS. */
  grants?: Readonly<Record<string, FunctionGrants>>;
  /** Wired in by the workflow and incident-sync parts once they exist. */
  stateMachine?: IStateMachine;
  incidentQueue?: IQueue;
}

export function stackName(tenant: string): string {
  return `SecurityInvestigation-${tenant}`;
}

/**
 * Everything one tenant runs: its four tables, one function per route plus the authorizer, and the
 * REST API built from the route table. Every physical name carries the tenant, so several tenants
 * share an account and region without colliding.
 */
export class TenantStack extends Stack {
  readonly tables: ServiceTables;
  readonly api: ServiceApi;
  readonly authorizerFunction: ServiceFunction;
  /** SIS_PUBLIC_URL of every function: the setting, the custom domain, or the stage URL. */
  readonly publicUrl: string;
  /** The console's user pool, app client, domain and groups. */
  readonly consoleSignIn: ConsoleSignIn;
  readonly consoleAuthorizerFunction: ServiceFunction;
  /** The investigation state machine, its step functions and the status-change rule. */
  readonly workflow: InvestigationWorkflow;
  /** The incident queue and its DLQ, the sync consumer, the SIEM pull function and its schedules. */
  readonly incidentSync: IncidentSync;
  /** The public feeds: compiled-set bucket, refresh function and schedules, staleness alarm. */
  readonly feeds: FeedRefresh;
  /** Route functions by `functionName`. */
  readonly routeFunctions = new Map<string, ServiceFunction>();
  /** Alarms, their SNS topic and the dashboard. */
  readonly observability: Observability;
  /** Present when the deployment enables WAF. */
  webAcl: ApiWebAcl | undefined;

  constructor(scope: Construct, id: string, props: TenantStackProps) {
    super(scope, id, {
      description: `Security Investigation Service for tenant ${props.settings.tenant}`,
      ...(props.settings.region ? { env: { region: props.settings.region } } : {}),
      ...props,
    });
    const { settings } = props;
    const routes = props.routes ?? ROUTES;
    const grantTable = props.grants ?? FUNCTION_GRANTS;
    const grantsOf = (name: string): FunctionGrants => grantsFor(name, grantTable);
    const removalPolicy = settings.removalPolicy === 'destroy' ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;

    const tableKey = settings.kmsKeyArn ? Key.fromKeyArn(this, 'TableKey', settings.kmsKeyArn) : undefined;
    this.tables = new ServiceTables(this, 'Tables', {
      tenant: settings.tenant,
      removalPolicy,
      ...(tableKey ? { encryptionKey: tableKey } : {}),
    });

    const commonEnvironment: Record<string, string> = {
      SIS_TENANT: settings.tenant,
      SIS_SYNC_WAIT_SECONDS: String(settings.syncWaitSeconds),
      SIS_AUTHORIZER_CACHE_TTL_SECONDS: String(settings.authorizerCacheTtlSeconds),
      ...(settings.legalUrl ? { SIS_LEGAL_URL: settings.legalUrl } : {}),
      ...(settings.contactEmail ? { SIS_CONTACT_EMAIL: settings.contactEmail } : {}),
    };
    for (const tableId of TABLE_IDS) {
      commonEnvironment[TABLES[tableId].configKey] = this.tables.tables[tableId].tableName;
    }
    const telemetry = telemetryProfile(settings);
    const defaults: ServiceFunctionDefaults = {
      tenant: settings.tenant,
      environment: commonEnvironment,
      logRetention: settings.logRetentionDays,
      removalPolicy,
      telemetry,
    };

    this.api = new ServiceApi(this, 'Api', {
      tenant: settings.tenant,
      authorizerCacheTtlSeconds: settings.authorizerCacheTtlSeconds,
      logRetention: settings.logRetentionDays,
      removalPolicy,
      telemetry,
      defaultLimits: {
        rateLimit: settings.rateLimitPerSecond,
        burstLimit: settings.burstLimit,
        dailyQuota: settings.dailyQuota,
      },
    });
    // Built from the API ID (or the custom domain), not the stage, so no function depends on the
    // deployment.
    commonEnvironment.SIS_PUBLIC_URL =
      settings.publicUrl ??
      (settings.customDomainName ? `https://${settings.customDomainName}` : this.api.baseUrl);

    this.authorizerFunction = new ServiceFunction(this, 'AuthorizerFunction', {
      defaults,
      name: AUTHORIZER_FUNCTION,
    });
    this.api.useAuthorizerFunction(this.authorizerFunction);
    this.publicUrl = commonEnvironment.SIS_PUBLIC_URL;
    this.consoleSignIn = new ConsoleSignIn(this, 'ConsoleSignIn', {
      tenant: settings.tenant,
      publicUrl: commonEnvironment.SIS_PUBLIC_URL,
      domainPrefix: settings.consoleDomainPrefix ?? `sis-${settings.tenant}-console`,
      identityProvider: settings.consoleIdentityProvider,
      removalPolicy,
    });
    this.consoleAuthorizerFunction = new ServiceFunction(this, 'ConsoleAuthorizerFunction', {
      defaults,
      name: CONSOLE_AUTHORIZER_FUNCTION,
      environment: this.consoleSignIn.environment,
    });
    this.api.useConsoleAuthorizerFunction(this.consoleAuthorizerFunction);
    this.workflow = new InvestigationWorkflow(this, 'Workflow', {
      defaults,
      tenant: settings.tenant,
      logRetention: settings.logRetentionDays,
      removalPolicy,
      ...(analystSettings(settings) ? { analyst: analystSettings(settings) } : {}),
    });
    this.incidentSync = new IncidentSync(this, 'IncidentSync', {
      defaults,
      tenant: settings.tenant,
      removalPolicy,
      ...siemConnectorsFromContext(this.node),
    });

    this.feeds = new FeedRefresh(this, 'Feeds', {
      defaults,
      tenant: settings.tenant,
      removalPolicy,
      enabled: settings.feeds,
      ...(settings.feedUrls ? { urls: settings.feedUrls } : {}),
      ...(settings.intelSecretArn ? { intelSecretArn: settings.intelSecretArn } : {}),
    });

    for (const route of routes) {
      let fn = this.routeFunctions.get(route.functionName);
      if (!fn) {
        fn = new ServiceFunction(this, `${pascalCase(route.functionName)}Function`, {
          defaults,
          name: route.functionName,
          ...(CONSOLE_FILE_FUNCTIONS.has(route.functionName) ? { consoleFiles: true } : {}),
          ...(CONSOLE_SIGN_IN_FUNCTIONS.has(route.functionName)
            ? { environment: this.consoleSignIn.environment }
            : {}),
          ...(route.timeoutSeconds ? { timeoutSeconds: route.timeoutSeconds } : {}),
          ...(route.memoryMb ? { memoryMb: route.memoryMb } : {}),
        });
        this.routeFunctions.set(route.functionName, fn);
      }
      this.api.addRoute(route, fn);
    }

    const targets: GrantTargets = {
      tables: this.tables.tables,
      ...(tableKey ? { tableKey } : {}),
      stateMachine: props.stateMachine ?? this.workflow.stateMachine,
      ...(props.stateMachine ? {} : { expressStateMachine: this.workflow.expressStateMachine }),
      incidentQueue: props.incidentQueue ?? this.incidentSync.queue,
      feeds: this.feeds,
      apiAdmin: {
        tenant: settings.tenant,
        restApiId: this.api.api.restApiId,
        stageName: this.api.stageName,
        usagePlanId: this.api.usagePlan.usagePlanId,
        defaultLimits: {
          ratePerSecond: settings.rateLimitPerSecond,
          burst: settings.burstLimit,
          dailyQuota: settings.dailyQuota,
        },
      },
    };
    applyFunctionGrants(this.authorizerFunction, grantsOf(AUTHORIZER_FUNCTION), targets);
    applyFunctionGrants(this.consoleAuthorizerFunction, grantsOf(CONSOLE_AUTHORIZER_FUNCTION), targets);
    for (const [name, fn] of this.routeFunctions) applyFunctionGrants(fn, grantsOf(name), targets);
    for (const [name, fn] of this.workflow.functions) applyFunctionGrants(fn, grantsOf(name), targets);
    for (const [name, fn] of this.incidentSync.functions) applyFunctionGrants(fn, grantsOf(name), targets);
    for (const [name, fn] of this.feeds.functions) applyFunctionGrants(fn, grantsOf(name), targets);
    const refreshRoute = this.routeFunctions.get('refresh-feeds');
    if (refreshRoute) this.feeds.grantKeys(refreshRoute);

    // The functions that start investigation runs choose each run's state machine from the analyst
    // mode and the connectors (shared/domain/investigation/workflow-type.ts), so they get the same
    // settings as the steps, never a model grant or the connectors' secret.
    const starters = [...this.routeFunctions]
      .filter(([name]) => grantsOf(name).stateMachine?.includes('start'))
      .map(([, fn]) => fn);
    const analyst = analystSettings(settings);
    for (const fn of analyst ? starters : []) {
      for (const [key, value] of Object.entries(analyst?.environment ?? {})) fn.addEnvironment(key, value);
    }
    this.wireIntelConnectors(settings, starters);
    this.addEdge(settings);
    // Keep last: alarms and the dashboard cover every function, state machine and dead-letter queue
    // the stack holds at this point.
    this.observability = new Observability(this, 'Observability', {
      tenant: settings.tenant,
      ...(settings.alarmEmail ? { alarmEmail: settings.alarmEmail } : {}),
      restApiId: this.api.api.restApiId,
      stage: this.api.api.deploymentStage,
      accessLogs: this.api.accessLogs,
      authorizerFunction: this.authorizerFunction,
      dashboard: settings.dashboard,
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.observability.topic.topicArn,
      description: 'Alarm notifications; subscribe an address or a chat integration',
    });
    if (this.observability.dashboard) {
      new CfnOutput(this, 'DashboardName', { value: this.observability.dashboard.dashboardName });
    }
    new CfnOutput(this, 'StageName', {
      value: this.api.stageName,
      description: 'SIS_STAGE_NAME for the sis CLI (with RestApiId and UsagePlanId)',
    });

    this.acknowledgeFindings();
    this.addOutputs();
  }

  /** The optional custom domain and WAF in front of the stage. */
  /**
   * Intelligence connectors: the step that runs their tools (WORKFLOW_STEPS' `intelConnectors: run`,
   * step-run-intel) learns which connectors to use and reads their keys from the tenant's secret (the
   * only function granted it); the step that plans a run's tools (`plan`, step-mark-active) and the
   * connectors admin route learn the same settings, to plan and to show them, without any access to
   * the secret.
   */
  private wireIntelConnectors(settings: TenantSettings, starters: readonly ServiceFunction[]): void {
    const admin = this.routeFunctions.get('list-connectors');
    const enabled: Record<string, string> = {
      ...Object.fromEntries(
        settings.intelConnectors.map((name) => [`${intelEnvPrefix(name)}_ENABLED`, 'true']),
      ),
      ...(settings.intelSecretArn ? { SIS_INTEL_SECRET_ARN: settings.intelSecretArn } : {}),
    };
    // Only the tools' gate reads the internal suffixes (a name under them is never sent out).
    const internal: Record<string, string> = settings.internalSuffixes
      ? { SIS_INTERNAL_SUFFIXES: settings.internalSuffixes }
      : {};
    const recipients = [
      ...this.workflow.intelConnectorSteps.map(({ fn, use }) => ({
        fn,
        environment: use === 'run' ? { ...enabled, ...internal } : enabled,
      })),
      // A run that will look a connector up goes to the Standard state machine (workflow-type.ts).
      ...starters.map((fn) => ({ fn, environment: enabled })),
      ...(admin ? [{ fn: admin, environment: { ...enabled, ...internal } }] : []),
    ];
    for (const { fn, environment } of recipients) {
      for (const [key, value] of Object.entries(environment)) fn.addEnvironment(key, value);
    }
    if (settings.intelSecretArn && settings.intelConnectors.length > 0) {
      for (const { fn } of this.workflow.intelConnectorSteps.filter((step) => step.use === 'run')) {
        fn.function.addToRolePolicy(
          new PolicyStatement({
            actions: ['secretsmanager:GetSecretValue'],
            resources: [settings.intelSecretArn],
          }),
        );
      }
    }
  }

  private addEdge(settings: TenantSettings): void {
    if (settings.customDomainName && settings.customDomainCertificateArn) {
      const domain = this.api.addCustomDomain(settings.customDomainName, settings.customDomainCertificateArn);
      new CfnOutput(this, 'CustomDomainTarget', {
        value: domain.domainNameAliasDomainName,
        description: `DNS target of ${settings.customDomainName}: a CNAME, or an alias record in zone CustomDomainZone`,
      });
      new CfnOutput(this, 'CustomDomainZone', { value: domain.domainNameAliasHostedZoneId });
    }
    if (settings.enableWaf) {
      this.webAcl = new ApiWebAcl(this, 'WebAcl', {
        tenant: settings.tenant,
        stageArn: this.api.api.deploymentStage.stageArn,
        rateLimitPerIp: settings.wafRateLimitPerIp,
      });
    }
  }

  /** Every service function, the authorizer first. */
  get serviceFunctions(): ServiceFunction[] {
    return [
      this.authorizerFunction,
      this.consoleAuthorizerFunction,
      ...this.routeFunctions.values(),
      ...this.workflow.functions.map(([, fn]) => fn),
      ...this.incidentSync.functions.map(([, fn]) => fn),
      ...this.feeds.functions.map(([, fn]) => fn),
    ];
  }

  private addOutputs(): void {
    const url = this.api.baseUrl;
    new CfnOutput(this, 'ApiUrl', { value: url, description: 'Base URL of the API (stage included)' });
    new CfnOutput(this, 'OpenApiUrl', { value: `${url}/openapi.json` });
    new CfnOutput(this, 'PluginManifestUrl', { value: `${url}/.well-known/ai-plugin.json` });
    new CfnOutput(this, 'RestApiId', { value: this.api.api.restApiId });
    new CfnOutput(this, 'ConsoleUrl', {
      value: `${this.publicUrl.replace(/\/+$/, '')}/sessions`,
      description: 'The web console (sign in with the user pool below; docs/console.md)',
    });
    new CfnOutput(this, 'ConsoleUserPoolId', {
      value: this.consoleSignIn.userPool.userPoolId,
      description: 'Console users and groups (admins, analysts): aws cognito-idp admin-create-user ...',
    });
    new CfnOutput(this, 'ConsoleSignInUrl', { value: this.consoleSignIn.domain.baseUrl() });
    new CfnOutput(this, 'UsagePlanId', { value: this.api.usagePlan.usagePlanId });
    for (const tableId of TABLE_IDS) {
      new CfnOutput(this, `${pascalCase(tableId)}TableName`, {
        value: this.tables.tables[tableId].tableName,
        description: `${TABLES[tableId].configKey} for the sis CLI`,
      });
    }
  }

  private acknowledgeFindings(): void {
    for (const fn of this.serviceFunctions) {
      Validations.of(fn.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions.',
      });
    }
  }
}

function pascalCase(name: string): string {
  return name
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
