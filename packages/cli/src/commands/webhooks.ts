import type { Command } from 'commander';
import { type CommandContext, withExamples } from '../context';
import { EXIT } from '../errors';
import type { components } from '../generated/api';
import { printJson, printRows, printText, shortTime } from '../output';
import { runWithContext } from './investigations';
import { collectList } from './list-options';

/**
 * `sis webhooks list|create|rotate-secret|remove|deliveries` over the admin webhook API
 * (docs/soar.md "Webhooks"; GET/POST /api/v1/admin/webhooks…). DESIGN.md's `add` and `rotate` are
 * aliases of `create` and `rotate-secret`, the names of the API's own operations.
 */

type Schemas = components['schemas'];
type WebhookEvent = Schemas['WebhookEvent'];

/** The secret and what to do with it: printed once, never again by any command. */
function secretLines(secret: string): string[] {
  return [
    '',
    'Signing secret (shown only now: it cannot be read again, only rotated; store it in a secrets manager and give it to the receiver, which checks webhook-signature with it):',
    secret,
  ];
}

async function listWebhooks(ctx: CommandContext): Promise<number> {
  const answer = (await ctx.api.call('listWebhooks', {})).body;
  printRows(
    ctx.json,
    answer,
    ['WEBHOOK ID', 'STATUS', 'EVENTS', 'ONLY KEY', 'CREATED', 'DESCRIPTION', 'URL'],
    answer.webhooks.map((w) => [
      w.webhook_id,
      w.disabled_reason ? `${w.status} (${w.disabled_reason})` : w.status,
      w.events.join(','),
      w.key_id ?? '-',
      shortTime(w.created_at),
      w.description,
      w.url,
    ]),
    'No webhooks. Add one with: sis webhooks create --url https://… --events investigation.completed --description "…"',
  );
  return EXIT.ok;
}

interface CreateFlags {
  url: string;
  events: string[];
  description: string;
  keyId?: string;
}

async function createWebhook(flags: CreateFlags, ctx: CommandContext): Promise<number> {
  const body: Schemas['CreateWebhookRequest'] = {
    url: flags.url,
    events: flags.events as WebhookEvent[],
    description: flags.description,
    ...(flags.keyId ? { key_id: flags.keyId } : {}),
  };
  const webhook = (await ctx.api.call('createWebhook', { body })).body;
  if (ctx.json) printJson(webhook);
  else
    printText(
      [
        `Created webhook ${webhook.webhook_id}: ${webhook.events.join(', ')} to ${webhook.url}${webhook.key_id ? ` (sessions of key ${webhook.key_id} only)` : ''}.`,
        ...secretLines(webhook.secret),
      ].join('\n'),
    );
  return EXIT.ok;
}

async function rotateSecret(webhookId: string, ctx: CommandContext): Promise<number> {
  const answer = (await ctx.api.call('rotateWebhookSecret', { path: { webhook_id: webhookId } })).body;
  if (ctx.json) printJson(answer);
  else
    printText(
      [
        `Rotated the secret of ${webhookId}: from the next attempt on only the new secret signs; update the receiver now.`,
        ...secretLines(answer.secret),
      ].join('\n'),
    );
  return EXIT.ok;
}

async function removeWebhook(webhookId: string, ctx: CommandContext): Promise<number> {
  await ctx.api.call('removeWebhook', { path: { webhook_id: webhookId } });
  if (ctx.json) printJson({ webhook_id: webhookId, removed: true });
  else printText(`Removed webhook ${webhookId}; deliveries not yet made are abandoned.`);
  return EXIT.ok;
}

async function listDeliveries(webhookId: string, ctx: CommandContext): Promise<number> {
  const answer = (await ctx.api.call('listWebhookDeliveries', { path: { webhook_id: webhookId } })).body;
  printRows(
    ctx.json,
    answer,
    ['CREATED', 'EVENT', 'STATUS', 'ATTEMPTS', 'LAST CODE', 'LAST ATTEMPT', 'WEBHOOK-ID', 'LAST ERROR'],
    answer.deliveries.map((d) => [
      shortTime(d.created_at),
      d.event,
      d.status,
      String(d.attempts),
      d.last_status_code === undefined ? '-' : String(d.last_status_code),
      shortTime(d.last_attempt_at),
      d.delivery_id,
      d.last_error ?? '',
    ]),
    `No deliveries of ${webhookId} in the last 30 days.`,
  );
  return EXIT.ok;
}

export function addWebhookCommands(program: Command): void {
  const webhooks = withExamples(
    program
      .command('webhooks')
      .description(
        'Signed notifications to a SOAR when work ends (admin key): subscriptions, secrets, delivery log',
      ),
    ['sis webhooks list', 'sis webhooks deliveries wh_k7q2m4x3c3v5b6n2'],
  );
  withExamples(
    webhooks.command('list').description('Each webhook: status, events, key filter, URL (never a secret)'),
    ['sis webhooks list', 'sis webhooks list --json | jq ".webhooks[] | select(.status == \\"disabled\\")"'],
  ).action((_flags: unknown, command: Command) => runWithContext(command, (ctx) => listWebhooks(ctx)));
  withExamples(
    webhooks
      .command('create')
      .alias('add')
      .description('Subscribe an https URL to events; the signing secret is printed once, to stdout')
      .requiredOption('--url <url>', 'https URL on public addresses; redirects are not followed')
      .requiredOption(
        '--events <events>',
        'investigation.completed, investigation.failed, investigation.canceled, incident.enriched (comma-separated or repeated)',
        collectList,
      )
      .requiredOption('--description <text>', 'what receives it, e.g. "XSOAR playbook: enrichment done"')
      .option('--key-id <key_id>', 'only events of the sessions this API key started'),
    [
      'sis webhooks create --url https://soar.example.com/hooks/sis --events investigation.completed,investigation.failed --description "XSOAR enrichment"',
      'sis webhooks create --url https://prod-12.westeurope.logic.azure.com/workflows/… --events investigation.completed --key-id k7q2m4x3c3v5b6n2 --description "Logic App" --json',
    ],
  ).action((flags: CreateFlags, command: Command) =>
    runWithContext(command, (ctx) => createWebhook(flags, ctx)),
  );
  withExamples(
    webhooks
      .command('rotate-secret')
      .alias('rotate')
      .description('Issue a new signing secret, printed once; only it signs from the next attempt on')
      .argument('<webhook_id>'),
    [
      'sis webhooks rotate-secret wh_k7q2m4x3c3v5b6n2',
      'sis webhooks rotate-secret wh_k7q2m4x3c3v5b6n2 --json',
    ],
  ).action((id: string, _flags: object, command: Command) =>
    runWithContext(command, (ctx) => rotateSecret(id, ctx)),
  );
  withExamples(
    webhooks
      .command('remove')
      .description('Remove a webhook and its secret; deliveries not yet made are abandoned')
      .argument('<webhook_id>'),
    ['sis webhooks remove wh_k7q2m4x3c3v5b6n2'],
  ).action((id: string, _flags: object, command: Command) =>
    runWithContext(command, (ctx) => removeWebhook(id, ctx)),
  );
  withExamples(
    webhooks
      .command('deliveries')
      .description(
        "A webhook's delivery log (latest 100 of 30 days): event, status, attempts, last status code, webhook-id",
      )
      .argument('<webhook_id>'),
    ['sis webhooks deliveries wh_k7q2m4x3c3v5b6n2', 'sis webhooks deliveries wh_k7q2m4x3c3v5b6n2 --json'],
  ).action((id: string, _flags: object, command: Command) =>
    runWithContext(command, (ctx) => listDeliveries(id, ctx)),
  );
}
