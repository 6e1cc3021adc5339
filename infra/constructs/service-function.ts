import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, type RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  type AddToPrincipalPolicyResult,
  type IGrantable,
  PolicyDocument,
  type PolicyStatement,
  Role,
  type RoleProps,
  ServicePrincipal,
} from 'aws-cdk-lib/aws-iam';
import {
  ApplicationLogLevel,
  Architecture,
  type CfnFunction,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import {
  type BundlingOptions,
  NodejsFunction,
  OutputFormat,
  SourceMapMode,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { IP_ADDRESS_LIBRARY_FILE } from '../../shared/domain/core/ip-address';
import { PUBLIC_SUFFIX_LIST_FILE } from '../../shared/domain/core/public-suffix';
import { BUNDLED_DIST_DIR, BUNDLED_SHELL_TEMPLATE } from '../../shared/platform/console-files';
import { MMDB_READER_PACKAGE } from '../../shared/platform/offline-data-format';
import { functionConfigProblem } from '../function-config';
import { tenantResourceName } from '../naming';
import { type TelemetryProfile, telemetryProfile } from '../telemetry';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const SERVICE_NAME = 'security-investigation-service';
export const METRICS_NAMESPACE = 'SecurityInvestigationService';
export const DEFAULT_MEMORY_MB = 256;
export const DEFAULT_TIMEOUT_SECONDS = 10;

/**
 * ESM bundles have no `require`; a few CommonJS dependencies inside the bundle (and the AWS SDK's
 * optional loaders) still call it, so the bundle gets one from `createRequire`.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __sisCreateRequire } from 'node:module'; const require = __sisCreateRequire(import.meta.url);";

/**
 * Packages every Lambda bundle takes from another module, by esbuild alias. The AWS SDK's default
 * credential chain becomes its first link, the environment variables Lambda sets, which takes about
 * 130 KB out of every bundle and nearly half of the floor's import CPU
 * (shared/platform/lambda-credential-provider.ts says what it leaves out). esbuild resolves an alias's
 * target from its working directory: the project root, where CDK runs the project's own esbuild (in
 * CDK's Docker fallback, without a local esbuild, the target would not be found and synth fails).
 * The Bedrock client's bearer-token providers likewise become their environment link, without the
 * SSO token fallback and its SSO-OIDC client (shared/platform/lambda-token-provider.ts).
 * Unbundled code (local runs, tests, scripts) keeps the full chain.
 */
export const LAMBDA_BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': './shared/platform/lambda-credential-provider.ts',
  '@aws-sdk/token-providers': './shared/platform/lambda-token-provider.ts',
  // The MCP SDK's JSON Schema validator: Cloudflare's small one instead of Ajv (shared/api/mcp says why).
  '@modelcontextprotocol/server/_shims': './shared/api/mcp/lambda-validator-shims.ts',
};

/** The aliases as NodejsFunction's esbuildArgs, which it renders as `--alias:<package>=<path>`. */
export function esbuildAliasArgs(aliases: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(aliases).map(([from, to]) => [`--alias:${from}`, to]));
}

/**
 * tldts's own prebuilt, self-contained CommonJS build, shipped beside every bundle as the Public
 * Suffix List file shared/domain/core/public-suffix.ts loads on first use: the list stays out of the
 * bundle a cold start parses (about 130 KB; 0.1x the floor's import CPU in the bench's what-if).
 */
export const PUBLIC_SUFFIX_LIST_SOURCE = path.join('node_modules', 'tldts', 'dist', 'index.cjs.min.js');

/**
 * ipaddr.js's own file (self-contained CommonJS, no dependencies), shipped beside every bundle as the
 * file shared/domain/core/ip-address.ts loads on the first IP address: 12.5 KB minified out of each
 * bundle that can reach IP parsing (the run-tool step, the analyst turn, the investigation starts).
 */
export const IP_ADDRESS_LIBRARY_SOURCE = path.join('node_modules', 'ipaddr.js', 'lib', 'ipaddr.js');

/**
 * mmdb-lib as published (CommonJS, no dependencies), shipped beside every bundle as
 * `node_modules/mmdb-lib`, where shared/platform/offline-intel.ts's require from the bundle finds
 * it on the first IP lookup: 9 KB minified out of the run-tool step's bundle, which carries the
 * offline data's reader (every bundle within 400 KB: issue #17's target).
 */
export const MMDB_READER_SOURCE = path.join('node_modules', MMDB_READER_PACKAGE);

/**
 * The libraries every function gets beside its bundle, loaded on first use through `createRequire`
 * (which esbuild leaves alone): every function gets all of them, so no function can reach one
 * without its file.
 */
export function besideBundleCommands(inputDir: string, outputDir: string): string[] {
  const packages = path.join(outputDir, 'node_modules');
  return [
    ...[
      [PUBLIC_SUFFIX_LIST_SOURCE, PUBLIC_SUFFIX_LIST_FILE],
      [IP_ADDRESS_LIBRARY_SOURCE, IP_ADDRESS_LIBRARY_FILE],
    ].map(([source, file]) => `cp "${path.join(inputDir, source!)}" "${path.join(outputDir, file!)}"`),
    `mkdir -p "${packages}"`,
    `cp -R "${path.join(inputDir, MMDB_READER_SOURCE)}" "${path.join(packages, MMDB_READER_PACKAGE)}"`,
  ];
}

/** Settings every function of one tenant shares; built once by the stack. */
export interface ServiceFunctionDefaults {
  tenant: string;
  /** Environment every function receives (tenant, public URL, table names, limits). */
  environment: Record<string, string>;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  /** Log levels and tracing (infra/telemetry.ts); the defaults' profile when omitted. */
  telemetry?: TelemetryProfile;
  /**
   * The one log group the tenant's functions write to (their streams carry the function's name), so
   * the stack holds one log group and one failure filter instead of one of each per function and
   * stays under CloudFormation's 500 resources. Authorizers keep a group of their own: their
   * failures are read with another pattern. Omitted: every function gets its own group.
   */
  sharedLogGroup?: LogGroup;
}

export interface ServiceFunctionProps {
  defaults: ServiceFunctionDefaults;
  /** Folder under `functions/` holding `handler.ts`; also the function's name suffix. */
  name: string;
  environment?: Record<string, string>;
  timeoutSeconds?: number;
  memoryMb?: number;
  /**
   * Ship the offline enrichment data (scripts/build-offline-data.ts, ~20 MB) in this function's
   * asset and point SIS_OFFLINE_DATA_DIR at it. Only the run-tool step needs it; the data is read
   * lazily on first lookup, so it costs the function's import nothing.
   */
  offlineData?: boolean;
  /** Folders (relative to the project root) copied beside the bundle under their last path segment. */
  assetFolders?: readonly string[];
  /**
   * Ship the built web console (`console/dist/`, from `npm run build:console`) and the HTML shell
   * template in this function's asset, where shared/platform/console-files.ts looks for them on Lambda.
   */
  consoleFiles?: boolean;
}

/**
 * Copies the built console and the shell template next to the bundle. `cp` fails the synth when the
 * console is not built, so a deployment never ships a console without its app.
 */
export function consoleBundleCommands(inputDir: string, outputDir: string): string[] {
  return [
    `cp -R "${path.join(inputDir, 'console', 'dist')}" "${path.join(outputDir, BUNDLED_DIST_DIR)}"`,
    `cp "${path.join(inputDir, 'shared', 'api', 'templates', 'console-shell.html')}" "${path.join(outputDir, BUNDLED_SHELL_TEMPLATE)}"`,
  ];
}

/** Where the offline data sits inside a function's asset, and so under /var/task. */
export const OFFLINE_DATA_ASSET_DIR = 'offline-data';
const LAMBDA_TASK_ROOT = '/var/task';

export function functionEntry(name: string): string {
  return path.join(PROJECT_ROOT, 'functions', name, 'handler.ts');
}

export function physicalFunctionName(tenant: string, name: string): string {
  return tenantResourceName(tenant, name);
}

/**
 * A role whose grants live in the role itself (one inline policy) instead of a separate
 * AWS::IAM::Policy per role, as `Role` does once anything is granted. The permissions are the same;
 * the template has one resource less per function, and a tenant stack lives within CloudFormation's
 * 500 resources per stack.
 */
class InlinePolicyRole extends Role {
  private readonly inline: PolicyDocument;

  constructor(scope: Construct, id: string, props: RoleProps) {
    const inline = new PolicyDocument();
    super(scope, id, { ...props, inlinePolicies: { ...props.inlinePolicies, grants: inline } });
    this.inline = inline;
  }

  override addToPrincipalPolicy(statement: PolicyStatement): AddToPrincipalPolicyResult {
    this.inline.addStatements(statement);
    return { statementAdded: true, policyDependable: this };
  }
}

/** REQUEST authorizers are named `functions/*authorizer` by convention. */
export function isAuthorizerName(name: string): boolean {
  return name.endsWith('authorizer');
}

/** The tenant's shared log group, or (authorizers, or no shared group) the function's own `Logs`. */
function functionLogGroup(
  scope: Construct,
  functionName: string,
  defaults: ServiceFunctionDefaults,
  name: string,
): LogGroup {
  return defaults.sharedLogGroup && !isAuthorizerName(name)
    ? defaults.sharedLogGroup
    : new LogGroup(scope, 'Logs', {
        logGroupName: `/aws/lambda/${functionName}`,
        retention: defaults.logRetention,
        removalPolicy: defaults.removalPolicy,
      });
}

/** The esbuild ESM bundle with the AWS SDK inside, and the files copied beside it. */
function functionBundling(props: ServiceFunctionProps, telemetry: TelemetryProfile): BundlingOptions {
  return {
    format: OutputFormat.ESM,
    mainFields: ['module', 'main'],
    banner: ESM_REQUIRE_BANNER,
    minify: true,
    sourceMap: true,
    // Unlinked unless stacks are mapped at run time: Node reads a linked map at every cold start.
    sourceMapMode: telemetry.sourceMappedStacks ? SourceMapMode.DEFAULT : SourceMapMode.EXTERNAL,
    sourcesContent: false,
    bundleAwsSDK: true,
    externalModules: [],
    esbuildArgs: esbuildAliasArgs(LAMBDA_BUNDLE_ALIASES),
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (inputDir: string, outputDir: string) =>
        afterBundlingCommands(props, inputDir, outputDir),
    },
  };
}

/** What lands beside the bundle: the shared libraries, and the offline data, folders and console asked for. */
function afterBundlingCommands(props: ServiceFunctionProps, inputDir: string, outputDir: string): string[] {
  return [
    ...besideBundleCommands(inputDir, outputDir),
    ...(props.offlineData
      ? [
          `npx --no-install tsx "${path.join(inputDir, 'scripts', 'build-offline-data.ts')}" "${path.join(outputDir, OFFLINE_DATA_ASSET_DIR)}"`,
        ]
      : []),
    ...(props.assetFolders ?? []).map(
      (folder) => `cp -R "${path.join(inputDir, folder)}" "${path.join(outputDir, path.basename(folder))}"`,
    ),
    ...(props.consoleFiles ? consoleBundleCommands(inputDir, outputDir) : []),
  ];
}

/** The function's environment: telemetry, the tenant's shared variables, its own, the offline data's folder. */
function functionEnvironment(
  props: ServiceFunctionProps,
  telemetry: TelemetryProfile,
): Record<string, string> {
  return {
    ...(telemetry.sourceMappedStacks ? { NODE_OPTIONS: '--enable-source-maps' } : {}),
    POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
    POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
    ...props.defaults.environment,
    ...props.environment,
    ...(props.offlineData ? { SIS_OFFLINE_DATA_DIR: `${LAMBDA_TASK_ROOT}/${OFFLINE_DATA_ASSET_DIR}` } : {}),
  };
}

/**
 * The one place that decides how a Lambda function of this service is built and run: Node.js 24 on
 * ARM64, an esbuild ESM bundle that includes the AWS SDK (the function runs the SDK version it was
 * tested with, not the runtime's) with the environment's credentials as its only credential source
 * (LAMBDA_BUNDLE_ALIASES), source maps, X-Ray and log levels from the tenant's telemetry
 * profile (infra/telemetry.ts), a log group with a retention, and a role that starts with nothing but
 * its own log group and X-Ray. Grants are added by the stack.
 *
 * The physical name is fixed (`sis-<tenant>-<name>`) so API Gateway can reach the function by ARN
 * without a reference to it; see TenantStack for why that matters.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;
  readonly functionName: string;
  /** How the function's bundle is built, as handed to NodejsFunction. */
  readonly bundling: BundlingOptions;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const { defaults, name } = props;
    const entry = functionEntry(name);
    if (!existsSync(entry)) {
      throw new Error(`Function '${name}' has no handler: expected ${path.relative(PROJECT_ROOT, entry)}`);
    }
    this.functionName = physicalFunctionName(defaults.tenant, name);
    const telemetry = defaults.telemetry ?? telemetryProfile();

    this.logGroup = functionLogGroup(this, this.functionName, defaults, name);
    // An own role instead of the AWSLambdaBasicExecutionRole managed policy, whose log permissions
    // cover every log group in the account.
    this.role = new InlinePolicyRole(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${this.functionName}`,
    });
    this.logGroup.grantWrite(this.role);
    this.bundling = functionBundling(props, telemetry);

    this.function = new NodejsFunction(this, 'Function', {
      functionName: this.functionName,
      entry,
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memoryMb ?? DEFAULT_MEMORY_MB,
      timeout: Duration.seconds(props.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS),
      // Invoked by API Gateway or Step Functions, a function follows the caller's sampling decision
      // (the tenant's sampling rule); untraced, it records nothing.
      tracing: telemetry.traced ? Tracing.ACTIVE : Tracing.DISABLED,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      systemLogLevelV2: SystemLogLevel[telemetry.lambdaSystemLogLevel],
      applicationLogLevelV2: ApplicationLogLevel[telemetry.lambdaApplicationLogLevel],
      environment: functionEnvironment(props, telemetry),
      bundling: this.bundling,
    });
    this.validateConfigAtSynth();
  }

  /** At synth, after the stack has added every variable: the function's own configuration check. */
  private validateConfigAtSynth(): void {
    this.node.addValidation({
      validate: () => {
        const cfn = this.function.node.defaultChild as CfnFunction;
        const resolved = Stack.of(this).resolve(cfn.environment) as
          | { variables?: Record<string, unknown> }
          | undefined;
        const problem = functionConfigProblem(resolved?.variables ?? {});
        return problem ? [`${this.functionName} would refuse to start: ${problem}`] : [];
      },
    });
  }

  get grantable(): IGrantable {
    return this.role;
  }

  addToPolicy(statement: PolicyStatement): void {
    this.role.addToPrincipalPolicy(statement);
  }

  addEnvironment(key: string, value: string): void {
    this.function.addEnvironment(key, value);
  }
}
