// A fresh Node process, as a Lambda cold start: import one bundle, then (when given an event) call
// its handler once against DynamoDB Local. Times are written to the result file, not stdout, which
// carries the handler's own log lines.
//   node cold-start.mjs <bundle.mjs> <input.json> <result.json> [coverage]
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { pathToFileURL } from 'node:url';

const [bundlePath, inputPath, resultPath, mode] = process.argv.slice(2);
const input = JSON.parse(readFileSync(inputPath, 'utf8'));
const bundleUrl = pathToFileURL(bundlePath).href;

let session;
if (mode === 'coverage') {
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
}
const functionsOf = async () => {
  // Taking precise coverage resets the counters, so each take covers one phase.
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const script = result.find((entry) => entry.url === bundleUrl);
  return (script?.functions ?? [])
    .map((f) => f.ranges[0])
    .filter((range) => range && range.count > 0)
    .map((range) => [range.startOffset, range.endOffset]);
};

const context = {
  callbackWaitsForEmptyEventLoop: false,
  functionName: input.functionName,
  functionVersion: '$LATEST',
  invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${input.functionName}`,
  memoryLimitInMB: '256',
  awsRequestId: 'bench-cold-start',
  logGroupName: `/aws/lambda/${input.functionName}`,
  logStreamName: 'bench',
  getRemainingTimeInMillis: () => 30_000,
};

const bootMs = performance.now();
// CPU time besides wall time: on a shared machine wall time also counts waiting for a core, while
// the CPU time is the work itself, which is what a Lambda's slice of a vCPU has to get through.
const importStart = performance.now();
const importCpuStart = process.cpuUsage();
const module = await import(bundleUrl);
const importMs = performance.now() - importStart;
const importCpu = process.cpuUsage(importCpuStart);
const importCpuMs = (importCpu.user + importCpu.system) / 1000;
const importCoverage = session ? await functionsOf() : undefined;

let callMs = null;
let callCpuMs = null;
let outcome = null;
if (input.event !== null) {
  const callStart = performance.now();
  const callCpuStart = process.cpuUsage();
  try {
    const result = await module.handler(input.event, context);
    outcome = result?.statusCode ?? (result?.policyDocument ? 'authorized' : 'ok');
  } catch (error) {
    outcome = `threw ${error?.name ?? 'error'}`;
  }
  callMs = performance.now() - callStart;
  const callCpu = process.cpuUsage(callCpuStart);
  callCpuMs = (callCpu.user + callCpu.system) / 1000;
}
const callCoverage = session && input.event !== null ? await functionsOf() : undefined;

writeFileSync(
  resultPath,
  JSON.stringify({ bootMs, importMs, importCpuMs, callMs, callCpuMs, outcome, importCoverage, callCoverage }),
);
// The SDK keeps sockets open; a Lambda sandbox would be frozen here.
process.exit(0);
