import { config } from '../config';

/**
 * The two manifests an assistant platform loads. Security Copilot limits: name_for_human ≤ 40
 * characters, name_for_model ≤ 100 without `/ \ ? # @`, description_for_model ≤ 16,000. The OpenAI
 * format can only express `Authorization: Bearer` for a service key, which the authorizer accepts as
 * an equivalent of X-API-Key; the Security Copilot manifest names the X-API-Key header directly and
 * asks each tenant for its own instance URL.
 *
 * The Security Copilot manifest has exactly the documented top-level keys (`Descriptor`,
 * `SkillGroups`) and the shape of Microsoft's API-key samples (`SupportedAuthTypes: [ApiKey]` beside
 * `Authorization`). Every URL either manifest publishes (logo, legal page, OpenAPI document) is a
 * public route of this service, or the operator's own legal URL (SIS_LEGAL_URL), so it answers
 * without a key on every deployment; no other string in a manifest is a URL.
 */
export const PLUGIN_PATHS = {
  openApi: '/openapi.json',
  pluginOpenApi: '/plugin/openapi.json',
  aiPlugin: '/.well-known/ai-plugin.json',
  securityCopilot: '/plugin/security-copilot.yaml',
  logo: '/plugin/logo.svg',
  legal: '/legal',
} as const;

export const PLUGIN_NAME_FOR_MODEL = 'SecurityInvestigationService';
export const PLUGIN_DISPLAY_NAME = 'Security Investigations';

const DESCRIPTION_FOR_HUMAN =
  'Investigate IPs, users, hosts and domains, explore related entities, list SIEM incidents and search past investigations.';

const DESCRIPTION_FOR_MODEL = [
  'Use this plugin for security operations questions about a specific IP address, user account, host or',
  'domain. Skills: (1) Investigate Entity (startInvestigation): runs an investigation with the SOC Analyst',
  'persona and returns a summary, a risk score from 0 to 100 with score_explanation (the points each',
  'finding and each intelligence source contributed), a verdict (malicious, suspicious, benign only on',
  'positive evidence named in a finding, unknown when nothing was found either way: never call unknown',
  'safe) with a confidence (low, medium, high: how many independent sources stand behind it),',
  'related entities and findings. A public IP carries offline attributes on the investigated entity (asn,',
  'as_org, country, network_class: cloud, cdn, hosting, isp). Findings of the threat-intelligence sources',
  "the tenant configured (source_tool intel_<source>, e.g. intel_abuseipdb) carry that source's own",
  'source_verdict; findings may list MITRE ATT&CK techniques (attack: id and name).',
  'report.coverage.intel_sources says which sources answered, came from cache, were skipped or failed. tlp',
  '(TLP 2.0: clear, green, amber (default), amber+strict, red) decides which outside sources may receive',
  'the entity: pass red when the user says the entity must not leave the organisation (no third party is',
  'asked); private addresses and internal names are never sent. (2) Query Knowledge Graph',
  '(queryKnowledgeGraph): entities connected to a value from past investigations and incidents, with the',
  "relationship and, where an investigation scored it, the neighbor's latest risk_score. (3) List Recent",
  'Incidents (listIncidents): latest SIEM incidents filtered by severity',
  '(e.g. high,critical) and time (since/until in ISO 8601); each has title, severity, status and a link.',
  '(4) Get Investigation Report (getInvestigationReport): a finished investigation by session_id, in the',
  'same shape; the same report is also exportable as a STIX 2.1 bundle for a threat-intelligence platform',
  '(GET /api/v1/sessions/{session_id}/stix, not a skill). (5) Search Investigations (searchInvestigations):',
  'past investigations matching words, an IP or a domain. Prefer Get Investigation Report or Search',
  'Investigations before starting a new investigation on an entity that was investigated recently. Results',
  'are final; there is no streaming. Answers are capped for assistants (at most 64 KiB, 20 findings, 100',
  'neighbors); truncated: true marks a shortened answer: ask for a smaller page with limit, or read the',
  'report by session_id.',
].join(' ');

export interface ManifestOptions {
  publicUrl: string;
  contactEmail: string;
  /** The operator's own terms page; unset, the manifests point at this service's `/legal` page. */
  legalUrl?: string | undefined;
}

function base(url: string): string {
  return url.replace(/\/+$/, '');
}

export function aiPluginManifest(options: ManifestOptions) {
  const url = base(options.publicUrl);
  return {
    schema_version: 'v1',
    name_for_human: PLUGIN_DISPLAY_NAME,
    name_for_model: PLUGIN_NAME_FOR_MODEL,
    description_for_human: DESCRIPTION_FOR_HUMAN,
    description_for_model: DESCRIPTION_FOR_MODEL,
    auth: { type: 'service_http', authorization_type: 'bearer', verification_tokens: {} },
    api: { type: 'openapi', url: `${url}${PLUGIN_PATHS.pluginOpenApi}`, is_user_authenticated: false },
    logo_url: `${url}${PLUGIN_PATHS.logo}`,
    contact_email: options.contactEmail,
    legal_info_url: legalUrl(options),
  };
}

/** The legal URL both the manifests and the terms page name. */
export function legalUrl(options: ManifestOptions): string {
  return options.legalUrl ?? `${base(options.publicUrl)}${PLUGIN_PATHS.legal}`;
}

/**
 * What the Security Copilot manifest says; security-copilot-manifest.ts renders it as the YAML the
 * route serves, so only that function's bundle carries a YAML writer.
 */
export function securityCopilotManifestContent(options: ManifestOptions) {
  const url = base(options.publicUrl);
  return {
    Descriptor: {
      Name: PLUGIN_NAME_FOR_MODEL,
      DisplayName: PLUGIN_DISPLAY_NAME,
      Description: DESCRIPTION_FOR_MODEL,
      DescriptionDisplay: DESCRIPTION_FOR_HUMAN,
      Icon: `${url}${PLUGIN_PATHS.logo}`,
      Settings: [
        {
          Name: 'InstanceURL',
          Label: 'Instance URL',
          Description:
            "Your tenant's API base URL: the address this manifest was downloaded from, without /plugin/security-copilot.yaml (the custom domain when the stack has one, else its ApiUrl output).",
          // Not a URL: every URL a manifest carries must answer 200, and a sample endpoint would not.
          // Nor "ending in /prod": behind a custom domain the base has no stage in its path.
          HintText:
            'The base of OpenApiSpecUrl: this manifest’s address without /plugin/security-copilot.yaml',
          SettingType: 'String',
          Required: true,
        },
      ],
      SupportedAuthTypes: ['ApiKey'],
      Authorization: { Type: 'APIKey', Key: 'X-API-Key', Location: 'Header', AuthScheme: '' },
    },
    SkillGroups: [
      {
        Format: 'API',
        Settings: {
          OpenApiSpecUrl: `${url}${PLUGIN_PATHS.pluginOpenApi}`,
          EndpointUrlSettingName: 'InstanceURL',
        },
      },
    ],
  };
}

export const PLUGIN_LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 64 64">' +
  '<rect width="64" height="64" rx="12" fill="#0b3d5c"/>' +
  '<path d="M32 10 50 17v13c0 11-7.6 20.5-18 24-10.4-3.5-18-13-18-24V17z" fill="#2aa3d8"/>' +
  '<circle cx="30" cy="30" r="8" fill="none" stroke="#fff" stroke-width="4"/>' +
  '<path d="m36 36 7 7" stroke="#fff" stroke-width="4" stroke-linecap="round"/></svg>';

export function manifestOptions(): ManifestOptions {
  const cfg = config();
  return { publicUrl: cfg.SIS_PUBLIC_URL, contactEmail: cfg.SIS_CONTACT_EMAIL, legalUrl: cfg.SIS_LEGAL_URL };
}
