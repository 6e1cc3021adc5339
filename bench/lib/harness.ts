import { randomBytes } from 'node:crypto';
import { type LocalService, startLocalService } from '../../local/service';
import { SCOPES } from '../../shared/domain/keys/scopes';
import { apiKeyService } from '../../shared/services/auth/api-keys';
import { HttpClient } from './http';

/**
 * One instance of the local runtime (real gateway, authorizer, handlers, ASL interpreter, queue) on
 * its own table set in the run's DynamoDB Local, with a client key holding every scope and rate
 * limits far above what the bench sends (so no figure is a 429), and an admin key.
 */
export interface BenchService {
  service: LocalService;
  http: HttpClient;
  tablePrefix: string;
  /** A client key with every scope. */
  apiKey: string;
  keyId: string;
  adminKey: string;
  adminKeyId: string;
  stop(): Promise<void>;
}

export async function startBenchService(options: {
  dynamodbEndpoint: string;
  /** Short name of the table set, e.g. `poll`. */
  name: string;
  connections?: number;
  /** Further environment for the handlers (e.g. webhooks to a receiver on 127.0.0.1). */
  env?: Record<string, string>;
}): Promise<BenchService> {
  const tablePrefix = `bench-${options.name}-${randomBytes(3).toString('hex')}`;
  const service = await startLocalService({
    port: 0,
    dynamodb: { endpoint: options.dynamodbEndpoint },
    tablePrefix,
    demoData: false,
    // One bench key starts many investigations at once: the running cap is off, and the daily quota is
    // far away but still counted (its write is part of what an investigation costs).
    env: {
      SIS_DEMO_DATA: '0',
      SIS_MAX_RUNNING_INVESTIGATIONS: '0',
      SIS_DEFAULT_DAILY_INVESTIGATIONS: '10000000',
      ...options.env,
    },
  });
  const keys = apiKeyService();
  const rate_limit = { rate_per_second: 10_000, burst: 5_000 };
  // An admin key: the cache-cold scenario asks for refresh_intel, which is for admin keys only.
  const client = await keys.create(
    { name: 'bench client', role: 'admin', scopes: [...SCOPES], rate_limit },
    'bench',
  );
  const admin = await keys.create({ name: 'bench admin', role: 'admin', scopes: [], rate_limit }, 'bench');
  const http = new HttpClient(service.baseUrl, options.connections ?? 64);
  return {
    service,
    http,
    tablePrefix,
    apiKey: client.apiKey,
    keyId: client.summary.key_id,
    adminKey: admin.apiKey,
    adminKeyId: admin.summary.key_id,
    stop: async () => {
      await http.close();
      await service.stop();
    },
  };
}
