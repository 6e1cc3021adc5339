import { createHash } from 'node:crypto';
import type { NormalisedIncident, Severity } from '../incidents/incident';
import { assertIncident, type IncidentInput } from '../incidents/incident-input';

/**
 * A small, realistic demo tenant: 36 incidents over the last 30 days from Sentinel, Splunk,
 * Elastic and a custom EDR webhook. They tell one overlapping story, so the knowledge graph has
 * structure and a first investigation finds context:
 *
 * - 203.0.113.66 password-sprays the tenant, brute-forces dc01 and hosts the look-alike phishing
 *   site micros0ft-login.example.com;
 * - j.doe@contoso.example is phished, her workstation ws-0142 runs a download cradle, beacons to
 *   update-cdn.example.net (198.51.100.23) and moves laterally to srv-db-01;
 * - svc-backup@contoso.example is misused on srv-db-01 and data leaves for files-share.example.org;
 * - background noise: scanners, impossible travel, admin tools, benign closures.
 *
 * Only documentation addresses (RFC 5737 / RFC 3849) and reserved names (RFC 2606, example.*)
 * are used: nothing here can point at a real system.
 */
type Source = 'sentinel' | 'splunk' | 'elastic' | 'custom';
type Status = 'new' | 'active' | 'resolved' | 'closed';

interface DemoRow {
  source: Source;
  /** Days before `now` the incident was raised (fractions allowed). */
  daysAgo: number;
  severity: Severity;
  status: Status;
  title: string;
  description: string;
  entities: ReadonlyArray<readonly [type: 'ip' | 'user' | 'host' | 'domain', value: string]>;
}

const JDOE = ['user', 'j.doe@contoso.example'] as const;
const ASMITH = ['user', 'a.smith@contoso.example'] as const;
const MGARCIA = ['user', 'm.garcia@contoso.example'] as const;
const SVC_BACKUP = ['user', 'svc-backup@contoso.example'] as const;
const KLEE = ['user', 'admin.k.lee@contoso.example'] as const;
const RCHEN = ['user', 'contoso\\r.chen'] as const;
const SPRAYER = ['ip', '203.0.113.66'] as const;
const SCANNER = ['ip', '203.0.113.200'] as const;
const ANON_PROXY = ['ip', '192.0.2.45'] as const;
const TRAVEL_IP = ['ip', '198.51.100.140'] as const;
const C2_IP = ['ip', '198.51.100.23'] as const;
const EXFIL_IP = ['ip', '198.51.100.77'] as const;
const WS0142_IP = ['ip', '192.0.2.10'] as const;
const SRVDB_IP = ['ip', '192.0.2.20'] as const;
const V6_SIGNIN = ['ip', '2001:db8::bad:1'] as const;
const PHISH = ['domain', 'micros0ft-login.example.com'] as const;
const C2_DOMAIN = ['domain', 'update-cdn.example.net'] as const;
const EXFIL_DOMAIN = ['domain', 'files-share.example.org'] as const;
const WS0142 = ['host', 'ws-0142'] as const;
const WS0219 = ['host', 'ws-0219'] as const;
const SRVDB = ['host', 'srv-db-01'] as const;
const DC01 = ['host', 'dc01'] as const;
const WEB03 = ['host', 'web-prod-03'] as const;
const MAILGW = ['host', 'mail-gw-01'] as const;

const ROWS: readonly DemoRow[] = [
  {
    source: 'sentinel',
    daysAgo: 0.2,
    severity: 'high',
    status: 'new',
    title: 'Password spray against Entra ID accounts from 203.0.113.66',
    description:
      '412 failed sign-ins across 37 accounts from one address in 20 minutes; 3 accounts targeted repeatedly.',
    entities: [SPRAYER, JDOE, ASMITH, MGARCIA],
  },
  {
    source: 'elastic',
    daysAgo: 0.4,
    severity: 'high',
    status: 'new',
    title: 'Connection to look-alike domain micros0ft-login.example.com',
    description:
      'ws-0142 resolved and connected to a domain imitating the Microsoft sign-in page, hosted on 203.0.113.66.',
    entities: [WS0142, PHISH, SPRAYER, JDOE],
  },
  {
    source: 'sentinel',
    daysAgo: 0.9,
    severity: 'high',
    status: 'active',
    title: 'Sign-in from anonymous proxy followed by MFA fatigue for j.doe@contoso.example',
    description: '14 MFA push requests in 6 minutes, the last approved, from an anonymising proxy address.',
    entities: [JDOE, ANON_PROXY],
  },
  {
    source: 'custom',
    daysAgo: 1.3,
    severity: 'medium',
    status: 'new',
    title: 'DNS query to newly registered domain micros0ft-login.example.com',
    description: 'EDR DNS telemetry: first query from the fleet to a domain registered 3 days ago.',
    entities: [WS0219, PHISH],
  },
  {
    source: 'splunk',
    daysAgo: 2.1,
    severity: 'critical',
    status: 'active',
    title: 'Brute Force Access Behavior Detected on dc01',
    description:
      'More than 50 failed Kerberos pre-authentications for j.doe@contoso.example from 203.0.113.66 followed by a success.',
    entities: [SPRAYER, JDOE, DC01],
  },
  {
    source: 'sentinel',
    daysAgo: 3.2,
    severity: 'medium',
    status: 'resolved',
    title: 'Phishing e-mail with credential-harvesting link delivered',
    description:
      'Message "Your password expires today" delivered to 2 mailboxes; link points to micros0ft-login.example.com. Purged by ZAP.',
    entities: [JDOE, ASMITH, PHISH, MAILGW],
  },
  {
    source: 'custom',
    daysAgo: 3.5,
    severity: 'high',
    status: 'new',
    title: 'Credential dumping: LSASS memory access on ws-0142',
    description: 'A process without a valid signature opened lsass.exe with PROCESS_VM_READ.',
    entities: [WS0142, JDOE],
  },
  {
    source: 'splunk',
    daysAgo: 4.4,
    severity: 'medium',
    status: 'active',
    title: 'Suspicious PowerShell download cradle on ws-0142',
    description: 'powershell.exe -nop -w hidden -enc … fetched a payload from update-cdn.example.net.',
    entities: [WS0142, JDOE, C2_DOMAIN],
  },
  {
    source: 'elastic',
    daysAgo: 4.6,
    severity: 'critical',
    status: 'active',
    title: 'Cobalt Strike beacon behaviour to update-cdn.example.net',
    description:
      'Periodic HTTPS beacons every 60 s ± 10 % jitter from ws-0142 to 198.51.100.23 (update-cdn.example.net).',
    entities: [WS0142, C2_IP, C2_DOMAIN, WS0142_IP],
  },
  {
    source: 'elastic',
    daysAgo: 5.1,
    severity: 'high',
    status: 'active',
    title: 'Lateral movement over SMB from ws-0142 to srv-db-01',
    description:
      'Remote service creation on srv-db-01 from 192.0.2.10 using j.doe@contoso.example credentials.',
    entities: [WS0142, SRVDB, WS0142_IP, SRVDB_IP, JDOE],
  },
  {
    source: 'splunk',
    daysAgo: 5.8,
    severity: 'high',
    status: 'active',
    title: 'Service account svc-backup used for interactive logon',
    description:
      'svc-backup@contoso.example logged on interactively (type 10) to srv-db-01; this account is for scheduled jobs only.',
    entities: [SVC_BACKUP, SRVDB, DC01],
  },
  {
    source: 'sentinel',
    daysAgo: 6.3,
    severity: 'critical',
    status: 'new',
    title: 'Possible data exfiltration to files-share.example.org',
    description:
      '7.4 GB uploaded from srv-db-01 to a file-sharing domain over 40 minutes, outside business hours.',
    entities: [SRVDB, SVC_BACKUP, EXFIL_IP, EXFIL_DOMAIN],
  },
  {
    source: 'custom',
    daysAgo: 6.9,
    severity: 'critical',
    status: 'active',
    title: 'Archive staging before upload on srv-db-01',
    description:
      'rar.exe created 14 password-protected archives in C:\\PerfLogs\\ shortly before the upload to files-share.example.org.',
    entities: [SRVDB, SVC_BACKUP, EXFIL_DOMAIN],
  },
  {
    source: 'splunk',
    daysAgo: 7.7,
    severity: 'medium',
    status: 'active',
    title: 'Excessive failed logons on dc01 for contoso\\r.chen',
    description: '96 NTLM failures in one hour from 203.0.113.66 via the VPN concentrator.',
    entities: [DC01, RCHEN, SPRAYER],
  },
  {
    source: 'elastic',
    daysAgo: 8.2,
    severity: 'low',
    status: 'closed',
    title: 'Port scan from 203.0.113.200 against web-prod-03',
    description: 'TCP SYN scan of 1,000 ports; blocked at the perimeter. Closed as expected internet noise.',
    entities: [SCANNER, WEB03],
  },
  {
    source: 'splunk',
    daysAgo: 8.9,
    severity: 'low',
    status: 'closed',
    title: 'Web vulnerability scan detected on web-prod-03',
    description: 'Nikto user agent; 3,214 requests, no successful exploitation.',
    entities: [SCANNER, WEB03],
  },
  {
    source: 'sentinel',
    daysAgo: 9.6,
    severity: 'informational',
    status: 'closed',
    title: 'Sign-in from a new country for a.smith@contoso.example',
    description: 'First sign-in from this country; the user confirmed travel. Closed as benign positive.',
    entities: [ASMITH, TRAVEL_IP],
  },
  {
    source: 'sentinel',
    daysAgo: 10.4,
    severity: 'medium',
    status: 'active',
    title: 'Impossible travel for m.garcia@contoso.example',
    description: 'Sign-ins 4,800 km apart within 35 minutes, one through an anonymising proxy.',
    entities: [MGARCIA, ANON_PROXY, TRAVEL_IP],
  },
  {
    source: 'sentinel',
    daysAgo: 11.2,
    severity: 'low',
    status: 'resolved',
    title: 'Mailbox forwarding rule to an external address',
    description:
      'Inbox rule forwards all mail of m.garcia@contoso.example to an external mailbox; rule removed.',
    entities: [MGARCIA, ['user', 'forward.box@example.net']],
  },
  {
    source: 'elastic',
    daysAgo: 12.0,
    severity: 'informational',
    status: 'closed',
    title: 'PsExec executed by an administrator',
    description: 'admin.k.lee@contoso.example ran PsExec against ws-0219 during a change window.',
    entities: [KLEE, WS0219],
  },
  {
    source: 'elastic',
    daysAgo: 12.8,
    severity: 'low',
    status: 'new',
    title: 'Unusual outbound connection from web-prod-03',
    description: 'nginx worker connected to 198.51.100.23 on port 8443; never seen before for this host.',
    entities: [WEB03, C2_IP],
  },
  {
    source: 'splunk',
    daysAgo: 13.5,
    severity: 'high',
    status: 'resolved',
    title: 'Threat intelligence match: 198.51.100.23 in proxy logs',
    description:
      'Outbound proxy traffic from ws-0219 to an address listed as command-and-control infrastructure.',
    entities: [C2_IP, C2_DOMAIN, WS0219],
  },
  {
    source: 'custom',
    daysAgo: 14.1,
    severity: 'informational',
    status: 'closed',
    title: 'EDR sensor reinstalled on ws-0219',
    description: 'Sensor reinstalled by IT during an OS upgrade. No action needed.',
    entities: [WS0219],
  },
  {
    source: 'sentinel',
    daysAgo: 15.0,
    severity: 'high',
    status: 'closed',
    title: 'Multiple failed sign-ins followed by success from IPv6 address',
    description:
      'a.smith@contoso.example signed in from 2001:db8::bad:1 after 11 failures; confirmed the user mistyped the password.',
    entities: [ASMITH, V6_SIGNIN],
  },
  {
    source: 'splunk',
    daysAgo: 15.9,
    severity: 'informational',
    status: 'closed',
    title: 'Audit policy change on dc01',
    description: 'Advanced audit policy updated by admin.k.lee@contoso.example under change CHG-20931.',
    entities: [DC01, KLEE],
  },
  {
    source: 'elastic',
    daysAgo: 16.7,
    severity: 'medium',
    status: 'resolved',
    title: 'Scheduled task created for persistence on ws-0142',
    description: 'Task "OneDrive Update" runs a script from %APPDATA% every hour; removed during clean-up.',
    entities: [WS0142, JDOE],
  },
  {
    source: 'custom',
    daysAgo: 17.5,
    severity: 'low',
    status: 'closed',
    title: 'Blocked macro in e-mail attachment',
    description: 'Office blocked a macro in "invoice_0923.docm" sent to a.smith@contoso.example.',
    entities: [ASMITH, MAILGW],
  },
  {
    source: 'sentinel',
    daysAgo: 18.3,
    severity: 'medium',
    status: 'closed',
    title: 'Anomalous token usage for svc-backup@contoso.example',
    description: 'Refresh token used from two different autonomous systems within one hour.',
    entities: [SVC_BACKUP, TRAVEL_IP],
  },
  {
    source: 'splunk',
    daysAgo: 19.2,
    severity: 'critical',
    status: 'resolved',
    title: 'Ransomware canary file modified on file server',
    description:
      'Canary files on the finance share were encrypted by a process from ws-0219; host isolated within 4 minutes.',
    entities: [WS0219, ['host', 'fs-fin-01']],
  },
  {
    source: 'elastic',
    daysAgo: 20.4,
    severity: 'informational',
    status: 'closed',
    title: 'Browser extension installed from outside the store',
    description: 'Extension sideloaded on ws-0219 by m.garcia@contoso.example; approved by IT.',
    entities: [WS0219, MGARCIA],
  },
  {
    source: 'custom',
    daysAgo: 21.6,
    severity: 'medium',
    status: 'closed',
    title: 'Tor client traffic from the guest network',
    description: 'Traffic to a known Tor entry node 192.0.2.45 from the guest Wi-Fi.',
    entities: [ANON_PROXY],
  },
  {
    source: 'sentinel',
    daysAgo: 23.1,
    severity: 'low',
    status: 'closed',
    title: 'Risky sign-in: unfamiliar sign-in properties for j.doe@contoso.example',
    description: 'New device and browser; user confirmed a new laptop.',
    entities: [JDOE, ['ip', '198.51.100.9']],
  },
  {
    source: 'splunk',
    daysAgo: 24.8,
    severity: 'low',
    status: 'closed',
    title: 'Geographically improbable VPN access for contoso\\r.chen',
    description: 'VPN session from two countries within 2 hours; the second was the corporate egress.',
    entities: [RCHEN, ['ip', '198.51.100.200']],
  },
  {
    source: 'elastic',
    daysAgo: 26.2,
    severity: 'high',
    status: 'closed',
    title: 'First contact with 203.0.113.66: reconnaissance of the VPN portal',
    description: 'Enumeration of /remote/login and /global-protect/ paths from 203.0.113.66; blocked by WAF.',
    entities: [SPRAYER, WEB03],
  },
  {
    source: 'custom',
    daysAgo: 27.9,
    severity: 'informational',
    status: 'closed',
    title: 'Vulnerability scanner authenticated scan completed',
    description: 'Monthly scan of web-prod-03 and srv-db-01 by the internal scanner.',
    entities: [WEB03, SRVDB],
  },
  {
    source: 'sentinel',
    daysAgo: 29.4,
    severity: 'medium',
    status: 'closed',
    title: 'Mass download by a user from SharePoint',
    description: 'm.garcia@contoso.example downloaded 1,200 files in 10 minutes; confirmed migration work.',
    entities: [MGARCIA],
  },
];

const DAY = 86_400_000;

function hex(seed: string, length: number): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, length);
}

function guid(seed: string): string {
  const h = hex(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function sourceIdentity(row: DemoRow, index: number): { source_id: string; url: string } {
  const seed = `sis-demo-${index}`;
  switch (row.source) {
    case 'sentinel': {
      const id = guid(seed);
      return {
        source_id: id,
        url: `https://portal.azure.com/#asset/Microsoft_Azure_Security_Insights/Incident/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/soc-demo/providers/Microsoft.OperationalInsights/workspaces/soc-demo/providers/Microsoft.SecurityInsights/Incidents/${id}`,
      };
    }
    case 'splunk': {
      const id = `${guid(seed).toUpperCase()}@@notable@@${hex(`${seed}-n`, 32)}`;
      return {
        source_id: id,
        url: `https://splunk.example.com:8000/en-US/app/SplunkEnterpriseSecuritySuite/incident_review?search=${encodeURIComponent(`event_id="${id}"`)}`,
      };
    }
    case 'elastic': {
      const id = hex(seed, 64);
      return { source_id: id, url: `https://kibana.example.com/app/security/alerts/redirect/${id}` };
    }
    case 'custom': {
      const id = `edr-${hex(seed, 12)}`;
      return { source_id: id, url: `https://edr.example.com/alerts/${id}` };
    }
  }
}

/** The demo incidents as a SIEM would push them (the ingest body's `incidents`). */
export function demoIncidentInputs(now: Date): IncidentInput[] {
  return ROWS.map((row, index) => {
    const created = Math.floor((now.getTime() - row.daysAgo * DAY) / 60_000) * 60_000;
    // Worked incidents changed after they were raised; new ones have not been touched.
    const touchedHours = row.status === 'new' ? 0 : 1 + (index % 5) * 3;
    const updated = Math.min(created + touchedHours * 3_600_000, now.getTime());
    const { source_id, url } = sourceIdentity(row, index);
    return {
      source: row.source,
      source_id,
      title: row.title,
      description: row.description,
      severity: row.severity,
      status: row.status,
      created_at: new Date(created).toISOString(),
      updated_at: new Date(updated).toISOString(),
      url,
      entities: row.entities.map(([type, value]) => ({ type, value })),
    };
  });
}

/** The demo incidents normalised, newest first; deterministic for a given `now`. */
export function demoIncidents(now: Date): NormalisedIncident[] {
  return demoIncidentInputs(now).map((input) => assertIncident(input));
}
