import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../infra/constructs/service-function';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { startLocalService } from '../../local/service';
import { estimateCostUsd, MODEL_PRICES, PRICE_SOURCE } from '../../shared/domain/analyst/prices';
import { SCOPES } from '../../shared/domain/keys/scopes';
import { apiKeyService } from '../../shared/services/auth/api-keys';
import { type ConverseCall, type FakeReply, startFakeBedrock } from '../../test/support/fake-bedrock';

/**
 * `npm run bench:analyst` — tokens and cost per investigation in bedrock analyst mode, for a
 * scripted conversation: the model reads the opening (system prompt, tool specs, every planned
 * tool's output as quoted data), asks for one pivot lookup, then submits its report. Runs the real
 * local runtime against the local Converse server, which counts tokens as request and reply size / 4
 * (a model's tokenizer differs by model; the figure is an estimate of this service's prompt size, not
 * of any model's exact count). Cost: the tokens at the on-demand list prices of shared/domain/analyst/prices.ts.
 *
 * Writes bench/results/analyst.{json,md}. Loopback only; a few seconds.
 */
const credentials = { accessKeyId: 'AKIDBENCHANALYST', secretAccessKey: 'bench-dummy-secret' };
const MODEL = 'us.anthropic.claude-3-5-haiku-20241022-v1:0';
const PERSONAS = ['SOC Analyst', 'CISO', 'Threat Hunter'] as const;
const ENTITY = '203.0.113.77';
const PIVOT = 'cdn-update.example.net';

interface ApiBody {
  incidents?: unknown[];
  report?: {
    analyst?: {
      mode: string;
      turns: number;
      tool_calls: number;
      input_tokens: number;
      output_tokens: number;
    };
  };
}

interface Row {
  persona: string;
  turns: number;
  tool_calls: number;
  input_tokens: number;
  output_tokens: number;
  wall_ms: number;
  cost_usd: Record<string, number | null>;
}

function script(call: ConverseCall): FakeReply {
  if (call.turn === 0) {
    return {
      content: [
        { text: `The incident links ${ENTITY} to ${PIVOT}; looking the domain up before concluding.` },
        {
          toolUse: {
            toolUseId: `tu-${randomBytes(4).toString('hex')}`,
            name: 'domain_analysis',
            input: { entity: { type: 'domain', value: PIVOT } },
          },
        },
      ],
      stopReason: 'tool_use',
    };
  }
  return {
    content: [
      {
        toolUse: {
          toolUseId: 'tu-submit',
          name: 'submit_report',
          input: {
            narrative:
              `${ENTITY} appears in a critical incident together with ${PIVOT}. The domain shows no look-alike traits, so the risk rests on the incident: treat the address as suspicious until the incident is closed. `.repeat(
                2,
              ),
            key_findings: [],
            recommended_actions: [
              `Block ${ENTITY} at the perimeter until the incident is resolved.`,
              `Search proxy logs for ${PIVOT} over the last 7 days.`,
            ],
            questions_for_human: ['Is the affected host expected to reach this address?'],
          },
        },
      },
    ],
    stopReason: 'tool_use',
  };
}

async function main() {
  const started = performance.now();
  const fake = await startFakeBedrock({
    credentials,
    region: 'us-east-1',
    reply: script,
    estimateUsage: true,
  });
  const dynamo = await startDynamoDbLocal({});
  const service = await startLocalService({
    port: 0,
    dynamodb: { endpoint: dynamo.endpoint },
    tablePrefix: `bench-analyst-${randomBytes(3).toString('hex')}`,
    demoData: false,
    env: {
      SIS_DEMO_DATA: '0',
      SIS_ANALYST: 'bedrock',
      SIS_BEDROCK_MODEL_ID: MODEL,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: fake.endpoint,
    },
  });
  const rows: Row[] = [];
  try {
    const { apiKey } = await apiKeyService().create({ name: 'bench', scopes: [...SCOPES] }, 'bench');
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${service.baseUrl}${path}`, {
        method,
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as ApiBody;
    };
    await call('POST', '/api/v1/incidents/ingest', {
      incidents: [
        {
          source: 'bench',
          source_id: 'analyst-1',
          title: 'Outbound connection to a newly seen domain',
          description: 'EDR flagged repeated HTTPS connections at a fixed interval.',
          severity: 'critical',
          status: 'new',
          created_at: new Date().toISOString(),
          entities: [
            { type: 'ip', value: ENTITY },
            { type: 'domain', value: PIVOT },
          ],
        },
      ],
    });
    for (let i = 0; i < 50; i++) {
      if ((await call('GET', '/api/v1/incidents?limit=5')).incidents?.length) break;
      await new Promise((wake) => setTimeout(wake, 100));
    }
    for (const persona of PERSONAS) {
      const t0 = performance.now();
      const out = await call('POST', '/api/v1/investigations/start', {
        entity: { type: 'ip', value: ENTITY },
        persona,
      });
      const analyst = out.report?.analyst;
      if (analyst?.mode !== 'bedrock')
        throw new Error(`no model narrative for ${persona}: ${JSON.stringify(out).slice(0, 300)}`);
      rows.push({
        persona,
        turns: analyst.turns,
        tool_calls: analyst.tool_calls,
        input_tokens: analyst.input_tokens,
        output_tokens: analyst.output_tokens,
        wall_ms: Math.round(performance.now() - t0),
        cost_usd: Object.fromEntries(
          MODEL_PRICES.map((p) => [
            p.modelPrefix,
            estimateCostUsd(p.modelPrefix, analyst.input_tokens, analyst.output_tokens),
          ]),
        ),
      });
    }
  } finally {
    await service.stop();
    await dynamo.stop();
    await fake.stop();
  }
  const result = {
    generated_at: new Date().toISOString(),
    model_id: MODEL,
    price_source: PRICE_SOURCE,
    rows,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
  const dir = join(PROJECT_ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'analyst.json'), `${JSON.stringify(result, null, 2)}\n`);
  const shown = [
    'anthropic.claude-3-5-haiku',
    'anthropic.claude-sonnet-4',
    'amazon.nova-lite',
    'amazon.nova-pro',
  ];
  const md = [
    '# Analyst (bedrock mode): tokens and cost per investigation',
    '',
    `Scripted conversation (one pivot lookup, then submit_report) against the local Converse server; tokens estimated as characters / 4. ${result.generated_at}. Prices: ${PRICE_SOURCE}.`,
    '',
    `| Persona | Turns | Lookups | Input tokens | Output tokens | ${shown.map((s) => `$ ${s}`).join(' | ')} |`,
    `| --- | ---: | ---: | ---: | ---: | ${shown.map(() => '---:').join(' | ')} |`,
    ...rows.map(
      (r) =>
        `| ${r.persona} | ${r.turns} | ${r.tool_calls} | ${r.input_tokens} | ${r.output_tokens} | ${shown.map((s) => r.cost_usd[s]?.toFixed(5) ?? 'n/a').join(' | ')} |`,
    ),
    '',
  ].join('\n');
  writeFileSync(join(dir, 'analyst.md'), md);
  process.stdout.write(`${md}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:analyst failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
