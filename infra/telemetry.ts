import { createHash } from 'node:crypto';
import { tenantPrefix } from './naming';

/**
 * What the stack logs and traces on every request, declared once: ServiceFunction, ServiceApi and
 * InvestigationWorkflow apply it, and the cost models (bench/lib/cost-model.ts, scripts/cost/usage-model.ts)
 * price the same profile, so the bill the docs quote follows what is deployed.
 *
 * Routine success is what a tenant pays for on every call, so it is kept quiet: Lambda's platform
 * records of a successful invocation (start, report) are dropped, the state machine logs only
 * failure events, and X-Ray records a small fixed share of requests. What an operator needs to debug
 * a failure stays in full: Lambda still logs a failed, timed-out or out-of-memory invocation's
 * platform records (they are WARN; the failure alarms' metric filters read them), the handlers' own
 * lines at INFO and above (refusals, errors with their cause), every failure event of a run with its
 * data, and the access log line of every request.
 */
export interface TelemetrySettings {
  /**
   * Everything on: Lambda platform records of every invocation and DEBUG application lines, every
   * execution event of every run. For a while, to debug; it multiplies the log bill (docs/cost.md).
   */
  debugLogging: boolean;
  /** Share of API requests X-Ray records (0 = no tracing at all, 1 = every request). */
  traceSampleRate: number;
}

export const TELEMETRY_DEFAULTS: TelemetrySettings = { debugLogging: false, traceSampleRate: 0.005 };

export interface TelemetryProfile {
  /**
   * Lambda advanced logging controls (JSON format). At WARN Lambda drops a successful invocation's
   * platform.start/platform.report records and keeps those of an invocation that failed, timed out or
   * ran out of memory (they are WARN then).
   */
  lambdaSystemLogLevel: 'WARN' | 'INFO';
  /**
   * INFO, not WARN: EMF metric lines carry no level, which Lambda reads as INFO, and refusals are
   * logged at INFO.
   */
  lambdaApplicationLogLevel: 'INFO' | 'DEBUG';
  /** The state machine's log level: ERROR logs only failure events (with their data). */
  executionLogLevel: 'ERROR' | 'ALL';
  /** X-Ray on the stage, the functions and the state machine. */
  traced: boolean;
  /** Fixed rate of the tenant's sampling rule (no reservoir: the share holds at any volume). */
  traceSampleRate: number;
  /**
   * Whether Node maps stack traces through the bundle's source map (NODE_OPTIONS=--enable-source-maps).
   * Off by default: Node then parses the map at every cold start, which the bench measures at about
   * 1.2× the import's CPU time. The map still ships beside every bundle, unlinked, so a logged stack
   * can be mapped offline (docs/operations.md); debugLogging links and enables it.
   */
  sourceMappedStacks: boolean;
}

export function telemetryProfile(settings: TelemetrySettings = TELEMETRY_DEFAULTS): TelemetryProfile {
  return {
    lambdaSystemLogLevel: settings.debugLogging ? 'INFO' : 'WARN',
    lambdaApplicationLogLevel: settings.debugLogging ? 'DEBUG' : 'INFO',
    executionLogLevel: settings.debugLogging ? 'ALL' : 'ERROR',
    traced: settings.traceSampleRate > 0,
    traceSampleRate: settings.traceSampleRate,
    sourceMappedStacks: settings.debugLogging,
  };
}

/** X-Ray sampling rule names: 1-32 letters, digits, `_` or `-`; unique per account. */
export function samplingRuleName(tenant: string): string {
  const name = tenantPrefix(tenant);
  if (name.length <= 32) return name;
  const hash = createHash('sha256').update(tenant).digest('hex').slice(0, 8);
  return `${name.slice(0, 23)}-${hash}`;
}

/**
 * Responses of at least this many bytes are gzip-compressed by API Gateway when the client sends
 * `Accept-Encoding: gzip` (REST API minimumCompressionSize). Below about 1 KB gzip's header and
 * dictionary overhead save little and compression costs latency.
 */
export const MINIMUM_COMPRESSION_SIZE_BYTES = 1024;
