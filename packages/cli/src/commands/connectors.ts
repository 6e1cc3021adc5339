import type { Command } from 'commander';
import { type CommandContext, withExamples } from '../context';
import { EXIT } from '../errors';
import { printRows, printText, shortTime } from '../output';
import { runWithContext } from './investigations';

/**
 * `sis connectors list`: each threat-intelligence connector with its status, today's quota, its
 * circuit and, for one that is off, how to turn it on (GET /api/v1/admin/connectors).
 */
async function listConnectors(ctx: CommandContext): Promise<number> {
  const answer = (await ctx.api.call('listConnectors', {})).body;
  printRows(
    ctx.json,
    answer,
    ['CONNECTOR', 'ENABLED', 'LOOKS UP', 'QUOTA TODAY', 'CIRCUIT', 'LAST ERROR'],
    answer.connectors.map((c) => [
      c.name,
      c.enabled ? 'yes' : 'no',
      c.entity_types.join(','),
      c.enabled ? `${c.quota.used_today}/${c.quota.daily_limit}` : '-',
      c.circuit.state === 'open' && c.circuit.open_until
        ? `open until ${shortTime(c.circuit.open_until)}`
        : c.circuit.state,
      c.last_error ? `${shortTime(c.last_error_at)} ${c.last_error}` : '',
    ]),
    'No connectors.',
  );
  const off = answer.connectors.filter((c) => c.how_to_enable);
  if (!ctx.json && off.length > 0) {
    printText(['', 'To enable:', ...off.map((c) => `  ${c.name.padEnd(10)} ${c.how_to_enable}`)].join('\n'));
  }
  return EXIT.ok;
}

export function addConnectorCommands(program: Command): void {
  const connectors = withExamples(
    program
      .command('connectors')
      .description('Threat-intelligence connectors: status, quota, circuit, how to enable (admin key)'),
    ['sis connectors list'],
  );
  withExamples(
    connectors
      .command('list')
      .description(
        'Each connector: enabled, entity types, quota used today, circuit, last error, how to enable',
      ),
    ['sis connectors list', 'sis connectors list --json | jq ".connectors[] | select(.enabled)"'],
  ).action((_flags: unknown, command: Command) => runWithContext(command, (ctx) => listConnectors(ctx)));
}
