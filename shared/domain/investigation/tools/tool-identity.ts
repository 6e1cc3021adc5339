import { type Entity, entityLabel } from '../../core/entity';
import { describeEntity } from '../../core/entity-normalisation';
import type {
  Facts,
  Finding,
  RelatedEntity,
  Tool,
  ToolName,
  ToolOutput,
  ToolRunContext,
} from '../../core/vocabulary';
import { type FindingRule, makeFinding } from '../scoring';
import { builtInTool } from './built-in-tool-declarations';
import { mailProviderAnswer } from './mail-provider';
import { coOccurringEntities, digestIncidents, incidentFinding } from './tool-history';

/**
 * account_analysis and host_analysis: what the name itself says (naming conventions of privileged,
 * service, built-in and default accounts and machines), plus incidents that mention the short form
 * of the name (`alice` for `corp\alice`, `dc01` for `dc01.corp.local`) — SIEMs log identities in
 * whichever form the source wrote, and incident_history matches the exact value only.
 */

/** `attack`: techniques the pattern points to; only where the account or host kind itself does. */
interface NamingRule extends FindingRule {
  pattern: RegExp;
  kind: string;
}

/** First match wins: the most specific and most telling patterns come first. */
export const ACCOUNT_RULES: readonly NamingRule[] = [
  {
    code: 'krbtgt_account',
    pattern: /^krbtgt(_\d+)?$/,
    kind: 'kerberos_service',
    title: 'Kerberos ticket-granting account (krbtgt)',
    description:
      'krbtgt signs every Kerberos ticket in the domain and never logs on. Activity attributed to it points to forged tickets (Golden Ticket) or a DCSync of its hash.',
    impact:
      'This is the master key account of the corporate login system; any activity involving it is alarming.',
    score: 40,
    category: 'privileged_identity',
    attack: ['T1558.001', 'T1003.006'],
  },
  {
    code: 'builtin_admin',
    pattern: /^(administrator|admin|root|sa|sysadmin|superuser|domainadmin|enterpriseadmin)$/,
    kind: 'builtin_admin',
    title: 'Built-in or well-known administrator account',
    description:
      'A built-in administrator name: the first target of password spraying and brute force, usually shared and hard to attribute. Logons should be rare and from admin workstations only.',
    impact:
      'This is an all-powerful administrator account; if misused, an attacker controls the systems it manages.',
    score: 25,
    category: 'privileged_identity',
    attack: ['T1078.001', 'T1110', 'T1110.003'],
  },
  {
    code: 'privileged_naming',
    pattern:
      /^(adm|admin|da|ea|t0|tier0|priv|privileged)[-_.]|[-_.](adm|admin|da|ea|t0|priv)$|^adm[a-z]|admin$|^admin[a-z0-9]/,
    kind: 'privileged',
    title: 'Privileged account by naming convention',
    description:
      'The name follows a privileged-account convention (admin-, da-, -adm, t0-). Compromise gives an attacker administrative reach; review its logons against change records.',
    impact: 'This is an administrator-level account; misuse would have an outsized impact.',
    score: 20,
    category: 'privileged_identity',
    attack: ['T1078'],
  },
  {
    code: 'service_account',
    pattern: /^(svc|srv|service|sa)[-_.]|^svc[a-z0-9]|[-_.](svc|service)$|svc$/,
    kind: 'service',
    title: 'Service account by naming convention',
    description:
      'Service accounts run applications and should never log on interactively; interactive or unusual-host use is a classic sign of credential theft (Kerberoasting targets them).',
    impact:
      'This account runs software rather than belonging to a person; it should not be used to sign in by hand.',
    score: 10,
    category: 'privileged_identity',
    attack: ['T1558.003'],
  },
  {
    code: 'generic_account',
    pattern: /^(guest|test|testuser|temp|tmp|demo|default|user|scanner|backup)\d*$/,
    kind: 'generic',
    title: 'Generic or shared account',
    description:
      'A generic name (guest, test, temp...): activity cannot be attributed to a person and such accounts are often forgotten with weak passwords.',
    impact: 'This is a shared or test account that no single person is accountable for.',
    score: 15,
    category: 'anomalous_naming',
    attack: ['T1078'],
  },
  {
    code: 'machine_account',
    pattern: /\$$/,
    kind: 'machine',
    title: 'Computer account',
    description: 'Names ending in $ are computer accounts; they authenticate as the machine itself.',
    impact: 'This account belongs to a computer rather than a person.',
    score: 0,
    category: 'context',
  },
];

export const HOST_RULES: readonly NamingRule[] = [
  {
    code: 'offensive_distribution',
    pattern: /^(kali|parrot|blackarch|pentoo|pentest|attacker|hacker)([-_]|\d|$)/,
    kind: 'offensive',
    title: 'Offensive-security distribution hostname',
    description:
      'The default hostname of a penetration-testing distribution (Kali, Parrot...). Unless an authorised test is running, an attacker machine is on the network.',
    impact:
      'The computer name is the default of a hacking toolkit; unless a sanctioned test is under way, an intruder device is present.',
    score: 60,
    category: 'anomalous_naming',
  },
  {
    code: 'default_windows_name',
    pattern: /^(desktop|win|laptop)-[a-z0-9]{7,11}$/,
    kind: 'unmanaged',
    title: 'Default Windows hostname',
    description:
      'DESKTOP-XXXXXXX / WIN-XXXXXXXXXXX are names Windows generates at install: the machine was never renamed by IT, so it is likely unmanaged, personal or attacker-controlled (typical in RDP brute force and ransomware staging).',
    impact: 'The computer was never set up by IT, so it is probably not a managed company device.',
    score: 30,
    category: 'anomalous_naming',
  },
  {
    code: 'domain_controller',
    pattern: /^(dc|addc|pdc|bdc|rodc|ad)[-_]?\d*([-_]|$)|[-_](dc|addc|rodc)\d*$/,
    kind: 'domain_controller',
    title: 'Domain controller by naming convention',
    description:
      'A domain controller holds every credential in the directory (tier 0): suspicious activity on it means possible domain-wide compromise.',
    impact: 'This is a core login server for the whole company; if compromised, every account is at risk.',
    score: 20,
    category: 'critical_asset',
  },
  {
    code: 'high_value_server',
    pattern:
      /(^|[-_])(adfs|pki|rootca|subca|issuingca|sccm|mecm|wsus|vcenter|esxi?|hyperv|backup|veeam|pam|cyberark|vault)([-_]|\d|$)/,
    kind: 'high_value_server',
    title: 'High-value infrastructure server by naming convention',
    description:
      'Identity federation, PKI, software deployment, virtualisation, backup and vault servers let an attacker reach many systems at once (and ransomware operators target backups first).',
    impact:
      'This server controls many other systems or the backups; compromising it has a broad business impact.',
    score: 15,
    category: 'critical_asset',
  },
  {
    code: 'jump_host',
    pattern: /(^|[-_])(jump|jmp|bastion|paw)([-_]|\d|$)/,
    kind: 'jump_host',
    title: 'Jump host or privileged access workstation',
    description: 'Jump hosts and PAWs concentrate administrator sessions and credentials.',
    impact: 'Administrators use this computer to manage other systems, so it holds powerful credentials.',
    score: 10,
    category: 'critical_asset',
  },
  {
    code: 'server',
    pattern: /(^|[-_])(srv|svr|server|sql|db|exch|mail|web|app|file|fs|print|dns|dhcp)([-_]|\d|$)/,
    kind: 'server',
    title: 'Server by naming convention',
    description: 'The name follows a server naming convention.',
    impact: 'This is a server.',
    score: 0,
    category: 'context',
  },
  {
    code: 'workstation',
    pattern: /^(ws|wks|wkstn|pc|nb|lt|laptop|desktop)([-_]|\d)/,
    kind: 'workstation',
    title: 'Workstation by naming convention',
    description: 'The name follows a workstation or laptop naming convention.',
    impact: 'This is an employee computer.',
    score: 0,
    category: 'context',
  },
];

function applyRules(
  tool: ToolName,
  name: string,
  rules: readonly NamingRule[],
): { kind: string; finding?: Finding } {
  const rule = rules.find((r) => r.pattern.test(name));
  if (!rule) return { kind: 'standard' };
  return {
    kind: rule.kind,
    finding: makeFinding({
      tool,
      code: rule.code,
      title: rule.title,
      description: rule.description,
      impact: rule.impact,
      score: rule.score,
      category: rule.category,
      evidence: [name],
      attack: rule.attack,
    }),
  };
}

/** Incidents that mention `alias` (a short form of the subject) but not the subject itself. */
async function aliasIncidents(
  tool: ToolName,
  subject: Entity,
  alias: Entity | undefined,
  ctx: ToolRunContext,
): Promise<{ facts: Facts; findings: Finding[]; related: RelatedEntity[] }> {
  if (!alias) return { facts: { alias: null }, findings: [], related: [] };
  const incidents = await ctx.data.incidentsMentioning(alias, ctx.limits.incidents);
  const mentionsSubject = (i: (typeof incidents)[number]) =>
    (i.entities ?? []).some((e) => e.type === subject.type && e.value === subject.value);
  const onlyAlias = incidents.filter((i) => !mentionsSubject(i));
  const digest = digestIncidents(onlyAlias, ctx.now);
  const facts: Facts = { alias: alias.value, alias_incident_count: onlyAlias.length };
  if (onlyAlias.length === 0) return { facts, findings: [], related: [] };
  return {
    facts,
    findings: [
      incidentFinding(
        tool,
        'alias_in_incidents',
        subject,
        onlyAlias,
        digest,
        ` under the short name "${alias.value}"`,
      ),
    ],
    related: [
      { entity: alias, relationship: 'alias_of', evidence: digest.ids.slice(0, 20) },
      ...coOccurringEntities(alias, onlyAlias).filter(
        (r) => !(r.entity.type === subject.type && r.entity.value === subject.value),
      ),
    ],
  };
}

export const accountAnalysis: Tool = {
  ...builtInTool('account_analysis'),
  async run(entity: Entity, ctx: ToolRunContext): Promise<ToolOutput> {
    const user = describeEntity(entity);
    if (user.type !== 'user') throw new Error('account_analysis needs a user');
    const { kind, finding } = applyRules('account_analysis', user.name, ACCOUNT_RULES);
    const alias = user.form === 'bare' ? undefined : ({ type: 'user', value: user.name } as const);
    const fromAlias = await aliasIncidents('account_analysis', entity, alias, ctx);
    const mail =
      user.form === 'upn' && user.domain
        ? mailProviderAnswer('account_analysis', user.domain, 'account', ctx.offline)
        : undefined;
    const findings = [
      finding ??
        makeFinding({
          tool: 'account_analysis',
          code: 'standard_account',
          title: 'Standard user naming',
          description: `${entityLabel(entity)} follows no privileged, service or generic naming convention.`,
          impact: 'This looks like an ordinary personal account.',
          score: 0,
          category: 'context',
        }),
      ...(mail?.findings ?? []),
      ...fromAlias.findings,
    ];
    return {
      facts: {
        form: user.form,
        name: user.name,
        domain: user.domain ?? null,
        account_kind: kind,
        privileged: finding?.category === 'privileged_identity' && kind !== 'service',
        ...mail?.facts,
        ...fromAlias.facts,
      },
      findings,
      related: fromAlias.related,
      ...(mail ? { attributes: { account_kind: kind, ...mail.attributes } } : {}),
    };
  },
};

export const hostAnalysis: Tool = {
  ...builtInTool('host_analysis'),
  async run(entity: Entity, ctx: ToolRunContext): Promise<ToolOutput> {
    const host = describeEntity(entity);
    if (host.type !== 'host') throw new Error('host_analysis needs a host');
    const { kind, finding } = applyRules('host_analysis', host.short_name, HOST_RULES);
    const alias = host.form === 'fqdn' ? ({ type: 'host', value: host.short_name } as const) : undefined;
    const fromAlias = await aliasIncidents('host_analysis', entity, alias, ctx);
    const findings = [
      finding ??
        makeFinding({
          tool: 'host_analysis',
          code: 'unclassified_host',
          title: 'No recognised naming convention',
          description: `${entityLabel(entity)} matches no server, workstation, default or offensive naming pattern.`,
          impact: 'The computer name says nothing unusual about it.',
          score: 0,
          category: 'context',
        }),
      ...fromAlias.findings,
    ];
    return {
      facts: { form: host.form, short_name: host.short_name, role: kind, ...fromAlias.facts },
      findings,
      related: fromAlias.related,
    };
  },
};
