import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A metering hop between the service and DynamoDB Local (loopback only). It asks DynamoDB for the
 * consumed capacity of every call (adding `ReturnConsumedCapacity: TOTAL` where the caller did not),
 * and books the operation, table and request units against the current label. DynamoDB Local does
 * not check request signatures, so the rewritten body is accepted; the response is passed through
 * unchanged (its CRC32 header still matches). Used only in the cost phase: the extra hop would
 * distort latency figures.
 */
export interface MeteredCall {
  label: string;
  operation: string;
  table: string;
  readUnits: number;
  writeUnits: number;
}

const READS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

export interface DynamoMeter {
  endpoint: string;
  /** Every call made while `label` was set (calls made with no label are dropped). */
  calls: MeteredCall[];
  label: string | undefined;
  stop(): Promise<void>;
}

interface ConsumedCapacity {
  TableName?: string;
  CapacityUnits?: number;
}

function tableOf(operation: string, body: Record<string, unknown>): string {
  if (typeof body.TableName === 'string') return body.TableName;
  const requestItems = body.RequestItems as Record<string, unknown> | undefined;
  if (requestItems) return Object.keys(requestItems).join('+');
  const transact = (body.TransactItems as Record<string, { TableName?: string }>[] | undefined) ?? [];
  const names = new Set(transact.flatMap((action) => Object.values(action).map((a) => a.TableName ?? '?')));
  return names.size ? [...names].join('+') : operation;
}

export async function startDynamoMeter(target: string): Promise<DynamoMeter> {
  const upstream = new URL(target);
  const meter: DynamoMeter = { endpoint: '', calls: [], label: undefined, stop: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const label = meter.label;
      const operation = String(req.headers['x-amz-target'] ?? '').replace(/^DynamoDB_\d+\./, '');
      let body = Buffer.concat(chunks);
      let parsed: Record<string, unknown> = {};
      const metered = READS.has(operation) || WRITES.has(operation);
      if (metered) {
        parsed = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
        if (parsed.ReturnConsumedCapacity === undefined || parsed.ReturnConsumedCapacity === 'NONE') {
          parsed.ReturnConsumedCapacity = 'TOTAL';
          body = Buffer.from(JSON.stringify(parsed));
        }
      }
      const headers = { ...req.headers, host: upstream.host, 'content-length': String(body.length) };
      const forward = request(
        { hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
        (answer) => {
          const answerChunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => answerChunks.push(chunk));
          answer.on('end', () => {
            const answerBody = Buffer.concat(answerChunks);
            if (metered && label !== undefined) {
              let units = 0;
              try {
                const result = JSON.parse(answerBody.toString('utf8')) as { ConsumedCapacity?: unknown };
                const consumed = result.ConsumedCapacity;
                const list = (
                  Array.isArray(consumed) ? consumed : consumed ? [consumed] : []
                ) as ConsumedCapacity[];
                units = list.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
              } catch {
                // an error answer carries no capacity
              }
              meter.calls.push({
                label,
                operation,
                table: tableOf(operation, parsed),
                readUnits: READS.has(operation) ? units : 0,
                writeUnits: WRITES.has(operation) ? units : 0,
              });
            }
            res.writeHead(answer.statusCode ?? 500, answer.headers);
            res.end(answerBody);
          });
        },
      );
      forward.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      forward.end(body);
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
  meter.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  meter.stop = () =>
    new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
  return meter;
}

export interface OperationUnits {
  requests: number;
  readUnits: number;
  writeUnits: number;
}

/** Calls summed, in total and per `<operation> <table>`. */
export function meterTotals(calls: readonly MeteredCall[]) {
  const byOperation: Record<string, OperationUnits> = {};
  for (const call of calls) {
    const key = `${call.operation} ${call.table}`;
    const entry = byOperation[key] ?? { requests: 0, readUnits: 0, writeUnits: 0 };
    byOperation[key] = entry;
    entry.requests += 1;
    entry.readUnits += call.readUnits;
    entry.writeUnits += call.writeUnits;
  }
  return {
    requests: calls.length,
    readUnits: calls.reduce((sum, c) => sum + c.readUnits, 0),
    writeUnits: calls.reduce((sum, c) => sum + c.writeUnits, 0),
    byOperation,
  };
}
