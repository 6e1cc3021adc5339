import { defineConfig } from 'vitest/config';

/**
 * `npm run test:soak`: the long reliability and security runs, outside the default suite (CI's budget).
 * It runs test/soak/** (sustained mixed load) and the default suite's reliability and adversarial
 * files again with larger numbers: 600 fuzz inputs per route, 200 concurrent investigations, 60
 * investigations under throttling, a 15 s DynamoDB outage with an investigation in flight. One file
 * at a time, so each gets the machine to itself and its figures mean something. Any of these
 * variables set in the environment wins over the value here.
 */
const soakEnv = {
  POWERTOOLS_LOG_LEVEL: 'WARN',
  SIS_FUZZ_RUNS: '600',
  SIS_RELIABILITY_SESSIONS: '200',
  SIS_RELIABILITY_THROTTLED_SESSIONS: '60',
  SIS_RELIABILITY_OUTAGE_MS: '15000',
  SIS_SOAK_SECONDS: '120',
};

export default defineConfig({
  test: {
    name: 'soak',
    include: [
      'test/soak/**/*.test.ts',
      'test/integration/reliability-*.test.ts',
      'test/integration/security/security-fuzz-routes.test.ts',
      'test/integration/security/security-auth-attacks.test.ts',
    ],
    globalSetup: ['test/support/dynamodb-global-setup.ts'],
    fileParallelism: false,
    testTimeout: 1_800_000,
    hookTimeout: 300_000,
    env: Object.fromEntries(
      Object.entries(soakEnv).map(([name, value]) => [name, process.env[name] ?? value]),
    ),
  },
});
