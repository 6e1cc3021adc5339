import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../local/dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Endpoint of the in-memory DynamoDB Local shared by every test file of one project run. */
    dynamodbEndpoint: string;
  }
}

/**
 * One in-memory DynamoDB Local per test run (the official jar, on a free port). Test files isolate
 * themselves with uniquely named tables (test/support/dynamodb.ts), so they can run in parallel.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dynamodb = await startDynamoDbLocal({});
  project.provide('dynamodbEndpoint', dynamodb.endpoint);
  return () => dynamodb.stop();
}
