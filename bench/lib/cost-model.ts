import { EXPRESS_BILLING } from '../../scripts/aws-prices';
import { ASSUMPTIONS, anchorMonthlyCost, PRICES } from '../pricing';
import type { OperationUse } from '../scenarios/cost';

/**
 * Prices measured consumption (bench/scenarios/cost.ts) with the published prices in
 * bench/pricing.ts: US dollars per one million operations, by component.
 */
export interface CostBreakdown {
  apiGateway: number;
  lambdaRequests: number;
  lambdaDuration: number;
  dynamodb: number;
  stepFunctions: number;
  logs: number;
  xray: number;
  dataTransfer: number;
  total: number;
}

export interface CostLine {
  id: string;
  title: string;
  skill?: string;
  perMillion: CostBreakdown;
  /** Operations per month at which this costs as much as the always-on anchor. */
  breakEvenPerMonth: number;
  use: {
    httpRequests: number;
    lambdaInvocations: number;
    lambdaGbSeconds: number;
    readUnits: number;
    writeUnits: number;
    dynamoRequests: number;
    stateTransitions: number;
    expressRuns: number;
    logBytes: number;
    responseBytes: number;
    transferBytes: number;
  };
}

const GIB = 1024 ** 3;

export function priceOperation(op: OperationUse): CostLine {
  const invocations = op.lambdas.reduce((sum, l) => sum + l.invocations, 0);
  // Lambda bills each invocation's duration rounded up to the millisecond.
  const gbSeconds = op.lambdas.reduce(
    (sum, l) => sum + l.invocations * (Math.ceil(l.meanMs) / 1000) * (l.memoryMb / 1024),
    0,
  );
  const logBytes =
    op.logBytes +
    invocations * ASSUMPTIONS.lambdaPlatformLogBytesPerInvocation +
    op.httpRequests * ASSUMPTIONS.accessLogBytesPerRequest +
    op.executionLogEvents * ASSUMPTIONS.executionLogBytesPerEvent;
  const million = 1_000_000;
  const perOp = {
    apiGateway: (op.httpRequests * PRICES.apiGatewayRestPerMillionRequests) / million,
    lambdaRequests: (invocations * PRICES.lambdaPerMillionRequests) / million,
    lambdaDuration: gbSeconds * PRICES.lambdaArmPerGbSecond,
    dynamodb:
      (op.dynamo.readUnits * PRICES.dynamodbPerMillionReadUnits +
        op.dynamo.writeUnits * PRICES.dynamodbPerMillionWriteUnits) /
      million,
    // Standard bills transitions; Express bills each execution and its duration at 64 MB (the
    // smallest step; a run's state is a few KB).
    stepFunctions:
      (op.stateTransitions * PRICES.stepFunctionsPerThousandTransitions) / 1000 +
      (op.expressRuns * PRICES.stepFunctionsExpressPerMillionRequests) / million +
      (EXPRESS_BILLING.memoryStepMb / 1024) *
        (op.expressBilledMs / 1000) *
        PRICES.stepFunctionsExpressPerGbSecond,
    logs: (logBytes / GIB) * PRICES.cloudWatchLogsPerGbIngested,
    // One trace per request; the steps of a run share its trace (X-Ray bills traces, not segments).
    xray:
      ((op.httpRequests + op.workflowRuns) *
        ASSUMPTIONS.xraySampledShare *
        PRICES.xrayPerMillionTracesRecorded) /
      million,
    dataTransfer: (op.transferBytes / GIB) * PRICES.dataTransferOutPerGb,
  };
  const total = Object.values(perOp).reduce((a, b) => a + b, 0);
  const perMillion = Object.fromEntries(
    Object.entries({ ...perOp, total }).map(([k, v]) => [k, v * million]),
  ) as unknown as CostBreakdown;
  return {
    id: op.id,
    title: op.title,
    ...(op.skill ? { skill: op.skill } : {}),
    perMillion,
    breakEvenPerMonth: total > 0 ? anchorMonthlyCost() / total : Number.POSITIVE_INFINITY,
    use: {
      httpRequests: op.httpRequests,
      lambdaInvocations: invocations,
      lambdaGbSeconds: gbSeconds,
      readUnits: op.dynamo.readUnits,
      writeUnits: op.dynamo.writeUnits,
      dynamoRequests: op.dynamo.requests,
      stateTransitions: op.stateTransitions,
      expressRuns: op.expressRuns,
      logBytes,
      responseBytes: op.responseBytes,
      transferBytes: op.transferBytes,
    },
  };
}

/** Several operations as one: e.g. a background investigation with its polls and report. */
export function combine(id: string, title: string, parts: Array<[OperationUse, number]>): OperationUse {
  const lambdas = new Map<string, { invocations: number; weightedMs: number; memoryMb: number }>();
  for (const [op, times] of parts) {
    for (const l of op.lambdas) {
      const entry = lambdas.get(l.functionName) ?? { invocations: 0, weightedMs: 0, memoryMb: l.memoryMb };
      entry.invocations += l.invocations * times;
      entry.weightedMs += l.meanMs * l.invocations * times;
      lambdas.set(l.functionName, entry);
    }
  }
  const sum = (pick: (op: OperationUse) => number) =>
    parts.reduce((total, [op, times]) => total + pick(op) * times, 0);
  return {
    id,
    title,
    repetitions: Math.min(...parts.map(([op]) => op.repetitions)),
    httpRequests: sum((op) => op.httpRequests),
    responseBytes: sum((op) => op.responseBytes),
    transferBytes: sum((op) => op.transferBytes),
    lambdas: [...lambdas].map(([functionName, l]) => ({
      functionName,
      invocations: l.invocations,
      meanMs: l.weightedMs / l.invocations,
      memoryMb: l.memoryMb,
    })),
    dynamo: {
      requests: sum((op) => op.dynamo.requests),
      readUnits: sum((op) => op.dynamo.readUnits),
      writeUnits: sum((op) => op.dynamo.writeUnits),
      byOperation: {},
    },
    stateTransitions: sum((op) => op.stateTransitions),
    workflowRuns: sum((op) => op.workflowRuns),
    expressRuns: sum((op) => op.expressRuns),
    expressBilledMs: sum((op) => op.expressBilledMs),
    executionLogEvents: sum((op) => op.executionLogEvents),
    logBytes: sum((op) => op.logBytes),
  };
}

export function priceAll(operations: readonly OperationUse[]): CostLine[] {
  const byId = (id: string) => operations.find((o) => o.id === id);
  const lines = operations.map(priceOperation);
  const background = byId('investigate-background');
  const full = byId('poll-full');
  const incremental = byId('poll-incremental');
  const report = byId('report');
  if (background && full && incremental && report) {
    const polls = ASSUMPTIONS.pollsPerBackgroundInvestigation;
    lines.push(
      priceOperation(
        combine(
          'investigation-background-total',
          `Background investigation: start, workflow, ${polls} polls (1 full, ${polls - 1} incremental), report`,
          [
            [background, 1],
            [full, 1],
            [incremental, polls - 1],
            [report, 1],
          ],
        ),
      ),
    );
  }
  return lines;
}
