import { ArnFormat, Duration, type RemovalPolicy, Size, Stack, Tags, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  BasePathMapping,
  type CfnAuthorizer,
  DomainName,
  EndpointType,
  IdentitySource,
  Integration,
  IntegrationType,
  LogGroupLogDestination,
  MethodLoggingLevel,
  Period,
  RequestAuthorizer,
  RestApi,
  SecurityPolicy,
  type UsagePlan,
} from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnSamplingRule } from 'aws-cdk-lib/aws-xray';
import { Construct } from 'constructs';
import { type RouteDefinition, servedPaths } from '../../shared/api/route-types';
import {
  API_STAGE_NAME,
  defaultUsagePlanName,
  restApiName,
  TENANT_TAG,
} from '../../shared/platform/api-gateway-names';
import { tenantResourceName } from '../naming';
import {
  MINIMUM_COMPRESSION_SIZE_BYTES,
  samplingRuleName,
  type TelemetryProfile,
  telemetryProfile,
} from '../telemetry';
import { addContractGatewayResponses } from './gateway-responses';
import type { ServiceFunction } from './service-function';

export { API_STAGE_NAME };
/** Per-key limits of the default usage plan; every key the service issues is attached to it. */
export const DEFAULT_THROTTLE = { rateLimit: 10, burstLimit: 20 } as const;
/** The header the authorizer is keyed on when its results are cached. */
export const API_KEY_HEADER = 'X-API-Key';

export interface ServiceApiProps {
  tenant: string;
  /** 0 = every request is authorized afresh (revocation is immediate). */
  authorizerCacheTtlSeconds: number;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  /** The default usage plan's per-key limits; DEFAULT_THROTTLE and no quota when omitted. */
  defaultLimits?: { rateLimit: number; burstLimit: number; dailyQuota?: number };
  /** Tracing and its sampling rule (infra/telemetry.ts); the defaults' profile when omitted. */
  telemetry?: TelemetryProfile;
  /**
   * The console's routes and their stage throttle: people sign in instead of using a key, so no usage
   * plan limits them; each console method gets a stage-level rate and burst (all users together).
   */
  consoleThrottle?: { routes: readonly RouteDefinition[]; rateLimit: number; burstLimit: number };
}

/** Stage method settings throttling every served path of the console routes. */
export function consoleMethodOptions(
  throttle: ServiceApiProps['consoleThrottle'],
): Record<string, { throttlingRateLimit: number; throttlingBurstLimit: number }> {
  if (!throttle) return {};
  return Object.fromEntries(
    throttle.routes
      .filter((route) => route.access.kind === 'console')
      .flatMap((route) =>
        servedPaths(route).map((path) => [
          `${path}/${route.method}`,
          { throttlingRateLimit: throttle.rateLimit, throttlingBurstLimit: throttle.burstLimit },
        ]),
      ),
  );
}

/**
 * The tenant's REST API: one regional stage with JSON access logs and X-Ray, the contract's error body
 * on API Gateway's own responses, a REQUEST authorizer on every non-public method, and the default
 * usage plan that throttles per key (the authorizer supplies the key, `apiKeySourceType: AUTHORIZER`).
 *
 * Methods reach their functions through an ARN built from the function's fixed name, not through a
 * reference to the function. The API therefore never depends on a function, and any function may
 * receive the API's own IDs (key administration needs the REST API, stage and usage plan IDs) without
 * a dependency cycle Function -> UsagePlan -> Stage -> Deployment -> Method -> Function.
 */
export class ServiceApi extends Construct {
  readonly api: RestApi;
  private authorizer: RequestAuthorizer | undefined;
  readonly usagePlan: UsagePlan;
  readonly accessLogs: LogGroup;
  readonly stageName = API_STAGE_NAME;
  /** The stage's base URL without trailing slash, built without a reference to the stage. */
  readonly baseUrl: string;
  /**
   * API Gateway invokes every route function through this one role (the integrations' credentials)
   * rather than one resource-based permission per function: the stack sits near CloudFormation's 500
   * resources, and ~60 permissions became a role and its policy. The role may invoke exactly the route
   * functions, and only this API may assume it.
   */
  private invokeRole: Role | undefined;
  private readonly invokeStatement = new PolicyStatement({ actions: ['lambda:InvokeFunction'] });
  private readonly invokable = new Set<ServiceFunction>();
  private readonly props: ServiceApiProps;
  private authorizerFunction: ServiceFunction | undefined;
  private consoleAuthorizerFunction: ServiceFunction | undefined;
  private consoleTokenAuthorizer: RequestAuthorizer | undefined;

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    this.props = props;
    const stack = Stack.of(this);
    const telemetry = props.telemetry ?? telemetryProfile();

    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });

    this.api = new RestApi(this, 'RestApi', {
      restApiName: restApiName(props.tenant),
      description: `Security Investigation Service, tenant ${props.tenant}`,
      endpointTypes: [EndpointType.REGIONAL],
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      cloudWatchRole: false,
      // Gzip when the client asks (Accept-Encoding): poll, incident and graph answers are JSON of
      // several KB that shrink 4-8x, and data transfer out is billed per byte.
      minCompressionSize: Size.bytes(MINIMUM_COMPRESSION_SIZE_BYTES),
      deployOptions: {
        stageName: API_STAGE_NAME,
        tracingEnabled: telemetry.traced,
        metricsEnabled: true,
        loggingLevel: MethodLoggingLevel.OFF,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: accessLogFormat(),
        methodOptions: consoleMethodOptions(props.consoleThrottle),
      },
    });
    this.baseUrl = `https://${this.api.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}/${API_STAGE_NAME}`;

    addContractGatewayResponses(this.api);
    if (telemetry.traced) this.addSamplingRule(props.tenant, telemetry.traceSampleRate);

    this.usagePlan = this.api.addUsagePlan('DefaultUsagePlan', {
      name: defaultUsagePlanName(props.tenant),
      description: 'Default per-key throttle; service keys are attached by key administration.',
      throttle: props.defaultLimits
        ? { rateLimit: props.defaultLimits.rateLimit, burstLimit: props.defaultLimits.burstLimit }
        : DEFAULT_THROTTLE,
      ...(props.defaultLimits?.dailyQuota
        ? { quota: { limit: props.defaultLimits.dailyQuota, period: Period.DAY } }
        : {}),
    });
    this.usagePlan.addApiStage({ stage: this.api.deploymentStage });
    // Key administration may attach keys only to plans tagged with its tenant.
    Tags.of(this.usagePlan).add(TENANT_TAG, props.tenant);

    this.acknowledgeFindings();
  }

  /** Adds the route's method at every path it is served under, all integrated with `fn`. */
  addRoute(route: RouteDefinition, fn: ServiceFunction): void {
    const stack = Stack.of(this);
    const functionArn = stack.formatArn({
      service: 'lambda',
      resource: 'function',
      resourceName: fn.functionName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    const integration = new Integration({
      type: IntegrationType.AWS_PROXY,
      integrationHttpMethod: 'POST',
      uri: `arn:${stack.partition}:apigateway:${stack.region}:lambda:path/2015-03-31/functions/${functionArn}/invocations`,
      options: { credentialsRole: this.routeInvokeRole() },
    });
    if (!this.invokable.has(fn)) {
      this.invokable.add(fn);
      this.invokeStatement.addResources(fn.function.functionArn);
    }
    const isPublic = route.access.kind === 'public';
    const isConsole = route.access.kind === 'console';

    for (const path of servedPaths(route)) {
      const resource = this.api.root.resourceForPath(path);
      const method = resource.addMethod(
        route.method,
        integration,
        isPublic
          ? { operationName: route.operationId, authorizationType: AuthorizationType.NONE }
          : isConsole
            ? {
                operationName: route.operationId,
                authorizationType: AuthorizationType.CUSTOM,
                authorizer: this.consoleAuthorizer(),
                // People are not throttled by a key's usage plan; WAF (opt-in) limits per source IP.
                apiKeyRequired: false,
              }
            : {
                operationName: route.operationId,
                authorizationType: AuthorizationType.CUSTOM,
                authorizer: this.apiKeyAuthorizer(),
                // The usage plan throttles only methods that require a key; the authorizer provides it.
                apiKeyRequired: true,
              },
      );
      if (isPublic) {
        Validations.of(method).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: `${route.method} ${path} is public by contract (health, OpenAPI, plugin manifest).`,
        });
      }
      Validations.of(method).acknowledge({
        id: 'AwsSolutions-COG4',
        reason: isConsole
          ? "People's Cognito ID tokens are verified by the console's Lambda REQUEST authorizer (aws-jwt-verify), which also maps their groups to roles; the same code verifies the local issuer's tokens."
          : 'Callers are assistant-platform plugins holding service API keys; a Lambda REQUEST authorizer checks them.',
      });
    }
  }

  /** The role of the integrations' credentials, made with the first route. */
  private routeInvokeRole(): Role {
    if (this.invokeRole) return this.invokeRole;
    const stack = Stack.of(this);
    this.invokeRole = new Role(this, 'RouteInvokeRole', {
      description: 'API Gateway invokes the route functions of this API with this role.',
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com').withConditions({
        StringEquals: { 'aws:SourceAccount': stack.account },
        ArnLike: { 'aws:SourceArn': this.api.arnForExecuteApi('*', '/*', '*') },
      }),
    });
    this.invokeRole.addToPrincipalPolicy(this.invokeStatement);
    return this.invokeRole;
  }

  /**
   * Serves the stage at the root of a custom domain (regional endpoint, TLS 1.2 minimum). DNS stays
   * with the operator: a CNAME or alias to `regionalDomainName`.
   */
  addCustomDomain(domainName: string, certificateArn: string): DomainName {
    const domain = new DomainName(this, 'CustomDomain', {
      domainName,
      certificate: Certificate.fromCertificateArn(this, 'CustomDomainCertificate', certificateArn),
      endpointType: EndpointType.REGIONAL,
      securityPolicy: SecurityPolicy.TLS_1_2,
    });
    new BasePathMapping(this, 'CustomDomainMapping', {
      domainName: domain,
      restApi: this.api,
      stage: this.api.deploymentStage,
    });
    return domain;
  }

  /** The console's token authorizer function; set before the first console route is added. */
  useConsoleAuthorizerFunction(fn: ServiceFunction): void {
    this.consoleAuthorizerFunction = fn;
  }

  /**
   * The console routes' REQUEST authorizer: identity source Authorization, so a request without a
   * token is refused (401) before it runs; uncached, so an expired token is refused at once.
   */
  consoleAuthorizer(): RequestAuthorizer {
    if (this.consoleTokenAuthorizer) return this.consoleTokenAuthorizer;
    const fn = this.consoleAuthorizerFunction;
    if (!fn) throw new Error('useConsoleAuthorizerFunction() must be called before adding console routes');
    this.consoleTokenAuthorizer = new RequestAuthorizer(this, 'ConsoleAuthorizer', {
      authorizerName: tenantResourceName(this.props.tenant, 'console'),
      handler: fn.function,
      identitySources: [IdentitySource.header('Authorization')],
      resultsCacheTtl: Duration.seconds(0),
    });
    return this.consoleTokenAuthorizer;
  }

  /** The function behind the REQUEST authorizer; set before the first protected route is added. */
  useAuthorizerFunction(fn: ServiceFunction): void {
    this.authorizerFunction = fn;
  }

  /**
   * Created with the first protected method: API Gateway rejects an authorizer no method uses, and
   * while the route table holds only public routes there is none.
   */
  apiKeyAuthorizer(): RequestAuthorizer {
    if (this.authorizer) return this.authorizer;
    const { tenant, authorizerCacheTtlSeconds } = this.props;
    const authorizerFunction = this.authorizerFunction;
    if (!authorizerFunction)
      throw new Error('useAuthorizerFunction() must be called before adding protected routes');
    const cached = authorizerCacheTtlSeconds > 0;
    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      authorizerName: tenantResourceName(tenant, 'api-key'),
      handler: authorizerFunction.function,
      identitySources: cached ? [IdentitySource.header(API_KEY_HEADER)] : [],
      resultsCacheTtl: Duration.seconds(authorizerCacheTtlSeconds),
    });
    if (!cached) {
      // Uncached, API Gateway needs no identity source, and without one it invokes the authorizer
      // whether the key comes as X-API-Key or as Authorization: Bearer. With an identity source, a
      // request lacking that header is refused before the authorizer runs, so a cached deployment
      // accepts X-API-Key only.
      (authorizer.node.defaultChild as CfnAuthorizer).addPropertyDeletionOverride('IdentitySource');
    }
    this.authorizer = authorizer;
    return authorizer;
  }

  /**
   * X-Ray's default rule records the first request each second and 5% of the rest, so a quiet tenant
   * pays for a trace of nearly every call. This rule records a fixed share of the stage's requests,
   * with no reservoir, at any volume; the authorizer, the route's function and the workflow a request
   * starts follow the stage's decision (they receive its trace header).
   */
  private addSamplingRule(tenant: string, rate: number): void {
    new CfnSamplingRule(this, 'TraceSampling', {
      samplingRule: {
        ruleName: samplingRuleName(tenant),
        // API Gateway names a stage's segments `<api name>/<stage>`.
        serviceName: `${restApiName(tenant)}/${API_STAGE_NAME}`,
        serviceType: 'AWS::ApiGateway::Stage',
        fixedRate: rate,
        reservoirSize: 0,
        priority: 1000,
        host: '*',
        httpMethod: '*',
        urlPath: '*',
        resourceArn: '*',
        version: 1,
      },
    });
  }

  private acknowledgeFindings(): void {
    Validations.of(this.api).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason:
          'Every function validates path, query and body with the zod schemas of the route table, the same schemas the OpenAPI document is generated from.',
      },
      {
        id: 'AwsSolutions-APIG3',
        reason:
          'WAF is opt-in (context enableWaf=true, about $8/month per tenant at idle): callers are authenticated by key and throttled per key by the usage plan, and the authorizer refuses unknown keys with one key read.',
      },
      {
        id: 'AwsSolutions-APIG6',
        reason:
          'Execution logging needs an account-wide API Gateway CloudWatch role, which this stack does not own; JSON access logs and X-Ray tracing are on.',
      },
    );
  }
}

/**
 * The stage's access log line: one per request, whatever its outcome, so it is kept to what an
 * operator reads to follow a request or a failure (who, which route, outcome, latency, the gateway's,
 * the integration's and the authorizer's error). CloudWatch stamps each line with its time; the
 * request ID joins it to the handler's lines and to the stage's X-Ray segment of a sampled request.
 * Each field costs every request ~$0.01 per million calls; the cost models price this declaration.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: AccessLogField.contextRequestId(),
  // The throttled-requests metric filter is dimensioned by API, so tenants sharing an account
  // keep their own counts.
  apiId: AccessLogField.contextApiId(),
  sourceIp: AccessLogField.contextIdentitySourceIp(),
  httpMethod: AccessLogField.contextHttpMethod(),
  resourcePath: AccessLogField.contextResourcePath(),
  status: AccessLogField.contextStatus(),
  responseLatency: AccessLogField.contextResponseLatency(),
  errorType: AccessLogField.contextErrorResponseType(),
  integrationError: AccessLogField.contextIntegrationErrorMessage(),
  authorizerError: AccessLogField.contextAuthorizerError(),
  keyId: AccessLogField.contextAuthorizer('keyId'),
} as const;

function accessLogFormat(): AccessLogFormat {
  // Never $context.identity.apiKey: that is the key itself.
  return AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS));
}
