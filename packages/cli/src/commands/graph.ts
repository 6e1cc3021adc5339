import { type Command, InvalidArgumentError, Option } from 'commander';
import { type CommandContext, withExamples } from '../context';
import { EXIT } from '../errors';
import type { components } from '../generated/api';
import { printJson, printText, shortTime, table } from '../output';
import { runWithContext } from './investigations';
import { limit } from './list-options';

type Schemas = components['schemas'];

async function showGraph(
  value: string,
  flags: { type?: string; depth?: number; limit?: number },
  ctx: CommandContext,
): Promise<number> {
  const answer = (
    await ctx.api.call('queryKnowledgeGraph', {
      path: { value },
      query: {
        ...(flags.type ? { type: flags.type as Schemas['EntityType'] } : {}),
        ...(flags.depth ? { depth: flags.depth } : {}),
        ...(flags.limit ? { limit: flags.limit } : {}),
      },
    })
  ).body;
  if (ctx.json) printJson(answer);
  else {
    const e = answer.entity;
    printText(
      [
        `${e.type} ${e.value}: ${e.investigation_count} investigation(s), ${e.incident_count} incident(s)${e.risk_score !== undefined ? `, risk ${e.risk_score}/100` : ''}; seen ${shortTime(e.first_seen)} to ${shortTime(e.last_seen)}`,
        '',
        table(
          ['TYPE', 'VALUE', 'RELATIONSHIP', 'DIR', 'COUNT', 'DEPTH', 'LAST SEEN'],
          answer.neighbors.map((n) => [
            n.type,
            n.value,
            n.relationship,
            n.direction ?? '-',
            String(n.count),
            String(n.depth),
            shortTime(n.last_seen),
          ]),
        ) || 'No related entities.',
      ].join('\n'),
    );
  }
  return EXIT.ok;
}

/** `sis graph <value>`. */
export function addGraphCommand(program: Command): void {
  withExamples(
    program
      .command('graph')
      .description('Entities related to a value in the knowledge graph')
      .argument('<value>', 'an IP address, user, host or domain')
      .addOption(
        new Option('--type <type>', 'entity type (inferred when omitted)').choices([
          'ip',
          'user',
          'host',
          'domain',
        ]),
      )
      .addOption(
        new Option('--depth <n>', 'hops to follow: 1 or 2').argParser((v) => {
          if (v !== '1' && v !== '2') throw new InvalidArgumentError('Allowed choices are 1, 2.');
          return Number(v);
        }),
      )
      .addOption(limit(100)),
    ['sis graph 203.0.113.7', 'sis graph alice --type user --depth 2 --json'],
  ).action((value: string, flags: { type?: string; depth?: number; limit?: number }, command: Command) =>
    runWithContext(command, (ctx) => showGraph(value, flags, ctx)),
  );
}
