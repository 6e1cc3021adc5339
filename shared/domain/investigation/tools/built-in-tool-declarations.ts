import type { ToolDeclaration, ToolName } from '../../core/vocabulary';

/**
 * The built-in tools' declarations (tool-catalogue.ts adds one per intelligence connector): their
 * own module so the tools' code takes its declaration from here, and the run-tool step, which
 * carries the built-in tools, never bundles the connector declarations.
 */

export type BuiltInToolName = Exclude<ToolName, `intel_${string}`>;

const BUILT_IN: Record<BuiltInToolName, Omit<ToolDeclaration, 'name'>> = {
  ip_classification: {
    description:
      'Classifies an IP address by special-purpose range (private, CGNAT, documentation, bogon, tunnel...).',
    appliesTo: (entity) => entity.type === 'ip',
  },
  domain_analysis: {
    description:
      'Registrable domain, subdomain depth, label entropy, suspicious TLDs, IDN homographs and look-alikes of well-known brands.',
    appliesTo: (entity) => entity.type === 'domain',
  },
  account_analysis: {
    description:
      'Account naming (built-in, privileged, service, generic, machine) and incidents that mention the bare logon name.',
    appliesTo: (entity) => entity.type === 'user',
  },
  host_analysis: {
    description:
      'Host naming (domain controller, high-value server, jump host, default or offensive-distribution names) and incidents that mention the short name.',
    appliesTo: (entity) => entity.type === 'host',
  },
  feeds: {
    description:
      'The IP or domain against the public threat feeds compiled inside the tenant (Spamhaus DROP, Feodo Tracker, URLhaus, ThreatFox, OpenPhish, Tor exits, CINS, ET compromised; Tranco popularity); nothing is sent out.',
    appliesTo: (entity) => entity.type === 'ip' || entity.type === 'domain',
  },
  incident_history: {
    description: 'Incidents that mention the entity, weighted by severity and recency; entities they share.',
    appliesTo: () => true,
  },
  prior_investigations: {
    description:
      "Earlier verdicts of the same entity (context only), analysts' feedback on them and the tenant's allowlist.",
    appliesTo: () => true,
  },
  graph_neighbourhood: {
    description:
      'Neighbours in the knowledge graph and links to entities judged high-risk on evidence independent of this one.',
    appliesTo: () => true,
  },
};

/** The declaration of a built-in tool. */
export function builtInTool(name: BuiltInToolName): ToolDeclaration {
  return { name, ...BUILT_IN[name] };
}
