import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeBedrock, startFakeBedrock } from '../../support/fake-bedrock';
import { startTestService, type TestService } from '../../support/local-service';

/**
 * Issue #27 item 4: a per-tenant monthly Bedrock token budget. Over HTTP with the real handlers and
 * ASL against the local Converse server: every turn's tokens are counted for the month; once the
 * count reaches SIS_BEDROCK_MONTHLY_TOKEN_BUDGET the analyst asks the model nothing more and the
 * investigation completes with the rules narrative (fallback budget_exhausted, the budget named).
 * The stack's 80 % alarm is test/infra/analyst-bedrock-stack.
 */
const credentials = { accessKeyId: 'AKIDBUDGETTEST', secretAccessKey: 'dummy-secret-for-local-signing' };
const REGION = 'us-east-1';

let fake: FakeBedrock;
let service: TestService;
let key: string;

beforeAll(async () => {
  fake = await startFakeBedrock({
    credentials,
    region: REGION,
    reply: () => ({
      content: [
        {
          toolUse: {
            toolUseId: 'tu-submit',
            name: 'submit_report',
            input: {
              narrative: 'Escalate: the address is listed as hosting infrastructure.',
              key_findings: [],
              recommended_actions: ['Review the egress logs for the last 24 hours.'],
              questions_for_human: [],
            },
          },
        },
      ],
      stopReason: 'tool_use',
      usage: { inputTokens: 3000, outputTokens: 500 },
    }),
  });
  service = await startTestService({
    env: {
      SIS_ANALYST: 'bedrock',
      SIS_BEDROCK_MODEL_ID: 'us.anthropic.claude-3-5-haiku-20241022-v1:0',
      SIS_BEDROCK_MONTHLY_TOKEN_BUDGET: '5000',
      AWS_REGION: REGION,
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: fake.endpoint,
    },
  });
  ({ apiKey: key } = await service.createKey({}));
});

afterAll(async () => {
  await service?.stop();
  await fake?.stop();
});

async function investigate(value: string) {
  const answer = await service.call('POST', '/api/v1/investigations/start', {
    key,
    body: { entity: { type: 'ip', value } },
  });
  expect(answer.status).toBe(200);
  return answer.body.report as { analyst: { mode: string; fallback_reason?: string } };
}

describe('the monthly Bedrock token budget', () => {
  it('lets the model write while the month is within budget, then stops asking it', async () => {
    expect((await investigate('203.0.113.41')).analyst.mode).toBe('bedrock'); // 3,500 of 5,000
    expect((await investigate('203.0.113.42')).analyst.mode).toBe('bedrock'); // 7,000: over
    const calls = fake.calls.length;
    const third = await investigate('203.0.113.43');
    expect(third.analyst).toMatchObject({ mode: 'rules', fallback_reason: 'budget_exhausted' });
    expect(fake.calls.length).toBe(calls);
  });
});
