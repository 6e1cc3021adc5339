import { type Command, Option } from 'commander';
import { type CommandContext, withExamples } from '../context';
import { parsePositiveInt } from '../durations';
import { EXIT } from '../errors';
import type { components } from '../generated/api';
import { printJson, printRows, printText, shortTime, table } from '../output';
import { runWithContext } from './investigations';

type Schemas = components['schemas'];

/**
 * The tenant's own knowledge (docs/tenant-knowledge.md): `sis allowlist add|list|remove`,
 * `sis assets add|list|remove` (critical assets) and `sis sessions feedback`, with an admin key.
 */
async function addEntry(
  type: string,
  value: string,
  flags: { reason: string; expiresInDays?: number },
  ctx: CommandContext,
): Promise<number> {
  const entry = (
    await ctx.api.call('addAllowlistEntry', {
      body: {
        type: type as Schemas['AllowlistType'],
        value,
        reason: flags.reason,
        ...(flags.expiresInDays ? { expires_in_days: flags.expiresInDays } : {}),
      },
    })
  ).body;
  if (ctx.json) printJson(entry);
  else
    printText(
      `Allowlisted ${entry.type} ${entry.value} as ${entry.entry_id}${entry.expires_at ? ` until ${shortTime(entry.expires_at)}` : ''}: ${entry.reason}`,
    );
  return EXIT.ok;
}

async function listEntries(ctx: CommandContext): Promise<number> {
  const answer = (await ctx.api.call('listAllowlist')).body;
  if (ctx.json) printJson(answer);
  else
    printText(
      table(
        ['ENTRY', 'TYPE', 'VALUE', 'EXPIRES', 'BY', 'REASON'],
        answer.entries.map((e) => [
          e.entry_id,
          e.type,
          e.value,
          e.expired ? 'expired' : e.expires_at ? shortTime(e.expires_at) : 'never',
          e.created_by,
          e.reason,
        ]),
      ) || 'The allowlist is empty.',
    );
  return EXIT.ok;
}

async function removeEntry(entryId: string, ctx: CommandContext): Promise<number> {
  await ctx.api.call('removeAllowlistEntry', { path: { entry_id: entryId } });
  if (ctx.json) printJson({ entry_id: entryId, removed: true });
  else printText(`Removed ${entryId} from the allowlist.`);
  return EXIT.ok;
}

async function addAsset(
  type: string,
  value: string,
  flags: { criticality: string; owner: string; reason: string },
  ctx: CommandContext,
): Promise<number> {
  const asset = (
    await ctx.api.call('addCriticalAsset', {
      body: {
        entity_type: type as Schemas['CriticalAssetType'],
        value,
        criticality: flags.criticality as Schemas['Criticality'],
        owner: flags.owner,
        reason: flags.reason,
      },
    })
  ).body;
  if (ctx.json) printJson(asset);
  else
    printText(
      `Declared ${asset.entity_type} ${asset.value} ${asset.criticality}, owner ${asset.owner}: ${asset.reason}`,
    );
  return EXIT.ok;
}

async function listAssets(ctx: CommandContext): Promise<number> {
  const answer = (await ctx.api.call('listCriticalAssets')).body;
  printRows(
    ctx.json,
    answer,
    ['TYPE', 'VALUE', 'CRITICALITY', 'OWNER', 'ADDED', 'BY', 'REASON'],
    answer.assets.map((a) => [
      a.entity_type,
      a.value,
      a.criticality,
      a.owner,
      shortTime(a.added_at),
      a.added_by,
      a.reason,
    ]),
    'No critical asset is declared.',
  );
  return EXIT.ok;
}

async function removeAsset(type: string, value: string, ctx: CommandContext): Promise<number> {
  await ctx.api.call('removeCriticalAsset', {
    path: { entity_type: type as Schemas['CriticalAssetType'], value },
  });
  if (ctx.json) printJson({ entity_type: type, value, removed: true });
  else printText(`Removed ${type} ${value} from the critical assets.`);
  return EXIT.ok;
}

async function feedback(
  sessionId: string,
  verdict: string,
  flags: { comment: string; expiresInDays?: number; approves?: string },
  ctx: CommandContext,
): Promise<number> {
  const answer = (
    await ctx.api.call('submitSessionFeedback', {
      path: { session_id: sessionId },
      body: {
        verdict: verdict as Schemas['SessionFeedbackRequest']['verdict'],
        comment: flags.comment,
        ...(flags.expiresInDays !== undefined ? { expires_in_days: flags.expiresInDays } : {}),
        ...(flags.approves !== undefined ? { approves: flags.approves } : {}),
      },
    })
  ).body;
  if (ctx.json) printJson(answer);
  else {
    const was = answer.session_withheld ? 'withheld: not your key' : (answer.session_verdict ?? '-');
    const until = answer.expires_at ? `, until ${answer.expires_at.slice(0, 10)}` : '';
    const weight =
      answer.status === 'awaiting_approval' ? "awaits an admin's approval" : 'later investigations cite it';
    printText(
      `Recorded ${answer.verdict.replace('_', ' ')} ${answer.review_id ?? ''} on ${answer.session_id} (verdict ${was}${until}); ${weight}.`,
    );
  }
  return EXIT.ok;
}

export function addTenantKnowledgeCommands(program: Command): void {
  const allowlist = withExamples(
    program
      .command('allowlist')
      .description("The tenant's allowlist: entities and networks it trusts (admin key)"),
    ['sis allowlist add domain contoso-payroll.com --reason "Payroll provider"', 'sis allowlist list'],
  );
  withExamples(
    allowlist
      .command('add')
      .description('Trust an entity: later investigations of it end benign, quoting the reason')
      .addOption(new Option('--reason <text>', 'why the tenant trusts it').makeOptionMandatory())
      .addOption(
        new Option('--expires-in-days <n>', 'lapse after this many days').argParser((v) =>
          parsePositiveInt(v, '--expires-in-days'),
        ),
      )
      .argument('<type>', 'ip, cidr (at most /8 or /32 for IPv6), domain (with its subdomains), user or host')
      .argument('<value>', 'the entity or network'),
    [
      'sis allowlist add cidr 198.51.100.0/24 --reason "Branch office" --expires-in-days 90',
      'sis allowlist add host build-07 --reason "CI runner" --json',
    ],
  ).action(
    (type: string, value: string, flags: { reason: string; expiresInDays?: number }, command: Command) =>
      runWithContext(command, (ctx) => addEntry(type, value, flags, ctx)),
  );
  withExamples(allowlist.command('list').description('List the entries, newest first'), [
    'sis allowlist list --json',
  ]).action((_flags: object, command: Command) => runWithContext(command, (ctx) => listEntries(ctx)));
  withExamples(
    allowlist.command('remove').description('Remove an entry').argument('<entry_id>', 'as listed'),
    ['sis allowlist remove al_3f1c0a9e5b7d2c4a6e8f0b1d'],
  ).action((id: string, _flags: object, command: Command) =>
    runWithContext(command, (ctx) => removeEntry(id, ctx)),
  );

  const sessions = program.commands.find((c) => c.name() === 'sessions');
  if (!sessions) throw new Error('the sessions command must be added first');
  withExamples(
    sessions
      .command('feedback')
      .description("Review a completed session's verdict (admin key): later investigations cite it")
      .argument('<session_id>')
      .addOption(
        new Option('--verdict <verdict>', 'true_positive or false_positive')
          .choices(['true_positive', 'false_positive'])
          .makeOptionMandatory(),
      )
      .addOption(
        new Option('--comment <text>', 'the reason; quoted by later investigations').makeOptionMandatory(),
      )
      .addOption(
        new Option('--expires-in-days <n>', 'stop counting after this many days').argParser((v) =>
          parsePositiveInt(v, '--expires-in-days'),
        ),
      )
      .option(
        '--approves <review_id>',
        "approve an analyst's false positive on this session (with a false_positive)",
      ),
    [
      'sis sessions feedback s_01JD6Z7QK3Q0V8Y5N2B4C6D8EF --verdict false_positive --comment "Our scanner"',
      'sis sessions feedback s_01JD6Z7QK3Q0V8Y5N2B4C6D8EF --verdict false_positive --comment "Checked" --approves rv_17647200000001a2b3c4d5e6f',
    ],
  ).action(
    (
      id: string,
      flags: { verdict: string; comment: string; expiresInDays?: number; approves?: string },
      command: Command,
    ) => runWithContext(command, (ctx) => feedback(id, flags.verdict, flags, ctx)),
  );
}

/** `sis assets`: the tenant's critical hosts and users (docs/tenant-knowledge.md, "Critical assets"). */
export function addAssetCommands(program: Command): void {
  const assets = withExamples(
    program
      .command('assets')
      .description(
        "The tenant's critical hosts and users: reports coordinate their containment with the owner (admin key)",
      ),
    [
      'sis assets add host dc01.corp.contoso.example --criticality critical --owner "Identity team" --reason "Domain controller"',
      'sis assets list',
    ],
  );
  withExamples(
    assets
      .command('add')
      .description(
        'Declare a host or user critical: later reports name its owner and never change the verdict',
      )
      .addOption(
        new Option('--criticality <level>', 'critical (an outage stops the business) or high (it hurts)')
          .choices(['critical', 'high'])
          .makeOptionMandatory(),
      )
      .addOption(
        new Option('--owner <text>', 'who to coordinate containment with (one line)').makeOptionMandatory(),
      )
      .addOption(new Option('--reason <text>', 'why it is critical').makeOptionMandatory())
      .argument('<type>', 'host or user')
      .argument('<value>', 'the host or user, normalised like an investigated entity'),
    [
      'sis assets add user ceo@contoso.example --criticality high --owner "Executive IT" --reason "CEO mailbox" --json',
    ],
  ).action(
    (
      type: string,
      value: string,
      flags: { criticality: string; owner: string; reason: string },
      command: Command,
    ) => runWithContext(command, (ctx) => addAsset(type, value, flags, ctx)),
  );
  withExamples(assets.command('list').description('List the critical assets, newest first'), [
    'sis assets list --json',
  ]).action((_flags: object, command: Command) => runWithContext(command, (ctx) => listAssets(ctx)));
  withExamples(
    assets
      .command('remove')
      .description('Remove a critical asset: later reports may recommend isolating or disabling it')
      .argument('<type>', 'host or user')
      .argument('<value>', 'as listed'),
    ['sis assets remove host dc01.corp.contoso.example'],
  ).action((type: string, value: string, _flags: object, command: Command) =>
    runWithContext(command, (ctx) => removeAsset(type, value, ctx)),
  );
}
