import { RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { type IKey, Key } from 'aws-cdk-lib/aws-kms';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '../shared/api/route-types';
import { ROUTES } from '../shared/api/routes';
import { analystSettings } from './constructs/analyst-model-grant';
import { ConsoleSignIn } from './constructs/console-sign-in';
import { FeedRefresh } from './constructs/feed-refresh';
import { applyFunctionGrants } from './constructs/function-permissions';
import { IncidentSync, siemConnectorsFromContext } from './constructs/incident-sync';
import { InvestigationWorkflow } from './constructs/investigation-workflow';
import { Observability } from './constructs/observability';
import type { ServiceApi } from './constructs/service-api';
import { ServiceFunction, type ServiceFunctionDefaults } from './constructs/service-function';
import { ServiceTables } from './constructs/service-tables';
import type { ApiWebAcl } from './constructs/waf';
import { WebhookDelivery } from './constructs/webhook-delivery';
import { FUNCTION_GRANTS, type FunctionGrants, grantsFor } from './function-grants';
import { defaultConsoleDomainPrefix } from './naming';
import type { TenantSettings } from './settings';
import { telemetryProfile } from './telemetry';
import { addEdge } from './tenant/edge';
import { functionDefaults } from './tenant/function-defaults';
import { wireAnalystStarters, wireIntelConnectors } from './tenant/function-wiring';
import { grantTargets } from './tenant/grants';
import { addObservabilityOutputs, addServiceOutputs } from './tenant/outputs';
import { addRouteFunctions } from './tenant/route-functions';
import { publicUrlOf, tenantApi } from './tenant/tenant-api';

export { CONSOLE_FILE_FUNCTIONS, CONSOLE_SIGN_IN_FUNCTIONS } from './tenant/route-functions';

export const AUTHORIZER_FUNCTION = 'authorizer';
export const CONSOLE_AUTHORIZER_FUNCTION = 'console-authorizer';

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
  /** The settings it was built from (a fleet's tenants each have their own). */
  readonly settings: TenantSettings;
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
  /** The delivery function, its schedule group for retries and the role the schedules run with. */
  readonly webhookDelivery: WebhookDelivery;
  /** Route functions by `functionName`. */
  readonly routeFunctions: Map<string, ServiceFunction>;
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
    this.settings = settings;
    const routes = props.routes ?? ROUTES;
    const removalPolicy = settings.removalPolicy === 'destroy' ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
    const telemetry = telemetryProfile(settings);
    const tableKey = settings.kmsKeyArn ? Key.fromKeyArn(this, 'TableKey', settings.kmsKeyArn) : undefined;
    this.tables = new ServiceTables(this, 'Tables', {
      tenant: settings.tenant,
      removalPolicy,
      ...(tableKey ? { encryptionKey: tableKey } : {}),
    });
    const defaults = functionDefaults(this, settings, this.tables, removalPolicy, telemetry);
    this.api = tenantApi(this, settings, routes, removalPolicy, telemetry);
    this.publicUrl = publicUrlOf(settings, this.api);
    defaults.environment.SIS_PUBLIC_URL = this.publicUrl;

    this.authorizerFunction = new ServiceFunction(this, 'AuthorizerFunction', {
      defaults,
      name: AUTHORIZER_FUNCTION,
    });
    this.api.useAuthorizerFunction(this.authorizerFunction);
    this.consoleSignIn = new ConsoleSignIn(this, 'ConsoleSignIn', {
      tenant: settings.tenant,
      publicUrl: this.publicUrl,
      domainPrefix: settings.consoleDomainPrefix ?? defaultConsoleDomainPrefix(settings.tenant),
      identityProvider: settings.consoleIdentityProvider,
      removalPolicy,
    });
    this.consoleAuthorizerFunction = new ServiceFunction(this, 'ConsoleAuthorizerFunction', {
      defaults,
      name: CONSOLE_AUTHORIZER_FUNCTION,
      environment: this.consoleSignIn.environment,
    });
    this.api.useConsoleAuthorizerFunction(this.consoleAuthorizerFunction);
    ({
      workflow: this.workflow,
      incidentSync: this.incidentSync,
      feeds: this.feeds,
    } = this.addBackgroundParts(settings, defaults, removalPolicy));
    this.webhookDelivery = new WebhookDelivery(this, 'Webhooks', { defaults, tenant: settings.tenant });
    this.routeFunctions = addRouteFunctions(this, this.api, routes, defaults, this.consoleSignIn.environment);
    this.wireFunctions(props, tableKey);
    this.webAcl = addEdge(this, settings, this.api);
    // Keep last: alarms and the dashboard cover every function, state machine and dead-letter queue
    // the stack holds at this point.
    this.observability = this.addObservability(settings);
    // A delivery invocation Lambda gave up on ends where the operator is told: the alarm topic.
    this.webhookDelivery.sendFailedInvocationsTo(this.observability.topic);
    addObservabilityOutputs(this, this.observability, this.api);
    this.acknowledgeFindings();
    addServiceOutputs(this, this);
  }

  /** The investigation workflow, the incident sync and the public feeds, with their own functions. */
  private addBackgroundParts(
    settings: TenantSettings,
    defaults: ServiceFunctionDefaults,
    removalPolicy: RemovalPolicy,
  ): { workflow: InvestigationWorkflow; incidentSync: IncidentSync; feeds: FeedRefresh } {
    const analyst = analystSettings(settings);
    const workflow = new InvestigationWorkflow(this, 'Workflow', {
      defaults,
      tenant: settings.tenant,
      logRetention: settings.logRetentionDays,
      removalPolicy,
      ...(analyst ? { analyst } : {}),
    });
    const incidentSync = new IncidentSync(this, 'IncidentSync', {
      defaults,
      tenant: settings.tenant,
      removalPolicy,
      ...siemConnectorsFromContext(this.node),
    });
    const feeds = new FeedRefresh(this, 'Feeds', {
      defaults,
      tenant: settings.tenant,
      removalPolicy,
      enabled: settings.feeds,
      ...(settings.feedUrls ? { urls: settings.feedUrls } : {}),
      ...(settings.intelSecretArn ? { intelSecretArn: settings.intelSecretArn } : {}),
    });
    return { workflow, incidentSync, feeds };
  }

  /**
   * Every function's grants (infra/function-grants.ts), then the variables some functions get beyond
   * the defaults: the pulled SIEMs' URLs on ingest, the analyst's and the connectors' settings.
   */
  private wireFunctions(props: TenantStackProps, tableKey: IKey | undefined): void {
    const grantTable = props.grants ?? FUNCTION_GRANTS;
    const grantsOf = (name: string): FunctionGrants => grantsFor(name, grantTable);
    const targets = grantTargets({
      settings: props.settings,
      tables: this.tables,
      tableKey,
      api: this.api,
      workflow: this.workflow,
      incidentSync: this.incidentSync,
      feeds: this.feeds,
      webhookDelivery: this.webhookDelivery,
      stateMachine: props.stateMachine,
      incidentQueue: props.incidentQueue,
    });
    for (const [name, fn] of this.namedFunctions()) applyFunctionGrants(fn, grantsOf(name), targets);
    const refreshRoute = this.routeFunctions.get('refresh-feeds');
    if (refreshRoute) this.feeds.grantKeys(refreshRoute);

    const ingest = this.routeFunctions.get('ingest-incidents');
    for (const [key, value] of Object.entries(this.incidentSync.pulledSourceUrls))
      ingest?.addEnvironment(key, value);
    const starters = [...this.routeFunctions]
      .filter(([name]) => grantsOf(name).stateMachine?.includes('start'))
      .map(([, fn]) => fn);
    wireAnalystStarters(props.settings, starters);
    wireIntelConnectors(props.settings, this.workflow, starters, this.routeFunctions.get('list-connectors'));
  }

  private addObservability(settings: TenantSettings): Observability {
    return new Observability(this, 'Observability', {
      tenant: settings.tenant,
      ...(settings.alarmEmail ? { alarmEmail: settings.alarmEmail } : {}),
      restApiId: this.api.api.restApiId,
      stage: this.api.api.deploymentStage,
      accessLogs: this.api.accessLogs,
      authorizerFunction: this.authorizerFunction,
      dashboard: settings.dashboard,
      ...(settings.analyst === 'bedrock' && settings.bedrockMonthlyTokenBudget
        ? { bedrockMonthlyTokenBudget: settings.bedrockMonthlyTokenBudget }
        : {}),
    });
  }

  /** Every service function by name, the authorizers first (grants are looked up by these names). */
  private namedFunctions(): [string, ServiceFunction][] {
    return [
      [AUTHORIZER_FUNCTION, this.authorizerFunction],
      [CONSOLE_AUTHORIZER_FUNCTION, this.consoleAuthorizerFunction],
      ...this.routeFunctions,
      ...this.workflow.functions,
      ...this.incidentSync.functions,
      ...this.feeds.functions,
      ...this.webhookDelivery.functions,
    ];
  }

  /** Every service function, the authorizer first. */
  get serviceFunctions(): ServiceFunction[] {
    return this.namedFunctions().map(([, fn]) => fn);
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
