import { defineConfig } from 'vitest/config';

/**
 * Four projects, one per test folder. Integration and e2e share one DynamoDB Local started by the
 * global setup (the official jar, over the AWS SDK wire protocol); each test file creates its own
 * uniquely named tables or local runtime, so files run in parallel without seeing each other's data.
 */
export default defineConfig({
  test: {
    // Vitest's default in run mode is one worker fewer than the cores: ONE on the 2-core CI machine,
    // where most of a file's time is spent waiting (DynamoDB Local, child processes, the local
    // runtime's timers), not computing. Three workers keep both cores busy. Timed assertions live in
    // `npm run bench`, so a busier machine cannot fail one.
    maxWorkers: 3,
    // Handlers log every rejected request at INFO; tests that inspect logs raise the level themselves.
    env: { POWERTOOLS_LOG_LEVEL: 'WARN' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // Unit files are pure or build their own objects: a worker imports the shared modules once
          // rather than once per file (import was half of the unit run's time). The integration and
          // e2e files keep isolation: they configure module-level state through the environment.
          isolate: false,
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
