import { defineConfig } from 'vitest/config';

/**
 * Four projects, one per test folder. Integration and e2e share one DynamoDB Local started by the
 * global setup (the official jar, over the AWS SDK wire protocol); each test file creates its own
 * uniquely named tables or local runtime, so files run in parallel without seeing each other's data.
 */
export default defineConfig({
  test: {
    // Handlers log every rejected request at INFO; tests that inspect logs raise the level themselves.
    env: { POWERTOOLS_LOG_LEVEL: 'WARN' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/offline-data-global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/dynamodb-global-setup.ts', 'test/support/offline-data-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          // Files of one worker share aws-cdk-lib and the synthesised stacks (test/support/synth.ts):
          // importing the CDK and synthesising the default stack once per worker, not once per file.
          isolate: false,
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/dynamodb-global-setup.ts', 'test/support/offline-data-global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
