import type { BenchResults } from '../bench';
import { count, table, usd } from './format';

/** Section 5: the cost model per million calls. */
export function costSection(results: BenchResults): string[] {
  const out: string[] = [];
  const cost = results.cost;
  if (cost) {
    out.push('## 5. Cost model');
    out.push('');
    out.push(
      `US dollars per one million calls, ${cost.region} list prices as of ${cost.pricesAsOf} (bench/pricing.ts), from the consumption measured per call: DynamoDB request units (ReturnConsumedCapacity on every call), Lambda invocations and durations (billed per ms at the function's memory), state transitions of the ASL's success path, log bytes, response bytes. Anchor: ${cost.anchor}, ${usd(cost.anchorMonthlyUsd)} a month; "break-even" is the monthly volume at which the serverless cost reaches it.`,
    );
    out.push('');
    out.push(
      table(
        [
          'Per 1M calls',
          'Total',
          'API Gateway',
          'Lambda',
          'DynamoDB',
          'Step Functions',
          'Logs',
          'X-Ray',
          'Transfer',
          'Break-even / month',
        ],
        cost.lines.map((l) => [
          `${l.title}${l.skill ? ` — *${l.skill}*` : ''}`,
          `**${usd(l.perMillion.total)}**`,
          usd(l.perMillion.apiGateway),
          usd(l.perMillion.lambdaRequests + l.perMillion.lambdaDuration),
          usd(l.perMillion.dynamodb),
          usd(l.perMillion.stepFunctions),
          usd(l.perMillion.logs),
          usd(l.perMillion.xray),
          usd(l.perMillion.dataTransfer),
          count(l.breakEvenPerMonth),
        ]),
      ),
    );
    out.push('');
    out.push(
      table(
        [
          'Consumption per call',
          'HTTP',
          'Lambda invocations',
          'Lambda GB-s',
          'DynamoDB requests',
          'Read units',
          'Write units',
          'Transitions',
          'Log bytes',
          'Response bytes',
          'Sent (gzip)',
        ],
        cost.lines.map((l) => [
          l.title,
          l.use.httpRequests.toFixed(0),
          l.use.lambdaInvocations.toFixed(1),
          l.use.lambdaGbSeconds.toFixed(4),
          l.use.dynamoRequests.toFixed(1),
          l.use.readUnits.toFixed(1),
          l.use.writeUnits.toFixed(1),
          l.use.stateTransitions.toFixed(0),
          l.use.logBytes.toFixed(0),
          l.use.responseBytes.toFixed(0),
          l.use.transferBytes.toFixed(0),
        ]),
      ),
    );
    out.push('');
    const investigation = cost.measurements.operations.find((o) => o.id === 'investigate-background');
    if (investigation) {
      const rows = Object.entries(investigation.dynamo.byOperation)
        .sort((a, b) => b[1].readUnits + b[1].writeUnits - (a[1].readUnits + a[1].writeUnits))
        .slice(0, 10)
        .map(([name, u]) => [
          `\`${name}\``,
          u.requests.toFixed(1),
          u.readUnits.toFixed(1),
          u.writeUnits.toFixed(1),
        ]);
      out.push("Where one investigation's DynamoDB request units go (start and workflow, per run):");
      out.push('');
      out.push(table(['Operation and table', 'Requests', 'Read units', 'Write units'], rows));
      out.push('');
    }
    out.push(
      `Log bytes are what the handlers wrote (EMF metrics included) plus what the default deployment's telemetry profile (infra/telemetry.ts) adds: ${cost.assumptions.lambdaPlatformLogBytesPerInvocation} bytes of Lambda platform log per successful invocation (system log level ${cost.assumptions.telemetry.lambdaSystemLogLevel}), ${cost.assumptions.accessLogBytesPerRequest} bytes of access log per request (the deployed format with representative values), ${cost.assumptions.executionLogBytesPerEvent} bytes per execution history event of a successful run in the state machine's log (level ${cost.assumptions.telemetry.executionLogLevel}); X-Ray records ${(cost.assumptions.xraySampledShare * 100).toFixed(1)}% of requests (the tenant's sampling rule, no reservoir), one trace per request and per workflow run. Transfer bills the gzip size (zlib default level) of answers of at least ${cost.assumptions.minimumCompressionSizeBytes} bytes, assuming the client sends \`Accept-Encoding: gzip\`. No free tiers, first price tiers. Lambda durations are this machine's; Lambda at 256 MB gets a fraction of a vCPU, so CPU-bound steps take longer there (Lambda stays a small share of every total above).`,
    );
    out.push('');
  }
  return out;
}
