import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * CI gate on known vulnerabilities in what ships: runs `npm audit --omit=dev --json` (production
 * dependencies only; dev tools never reach a Lambda bundle), drops the advisories listed in
 * scripts/audit-allowlist.json (each with a reason and an expiry date), and exits non-zero when a
 * high or critical advisory remains.
 *
 * The audit endpoint is a separate registry service that proxies and mirrors often block (it is a
 * POST to /-/npm/v1/security/advisories/bulk). Three outcomes:
 * - the service answered with a report: strict, every unallowed high or critical advisory fails;
 * - it could not be reached (a network error) or is not offered where npm asked (405, 404, 403, 501:
 *   a mirror or proxy that serves packages only): a clear WARNING that nothing was checked, exit 0
 *   ("not checked" is never reported as "no findings"); SIS_AUDIT_STRICT=1 makes it fail (exit 2);
 * - it answered, but with an error (a 5xx, a 400 for the lock file, a report npm could not read):
 *   a failure (exit 1), since the service is there and the check did not run.
 *
 *   npm run audit:check            # or: npx tsx scripts/audit-check.ts [--report <npm-audit.json>]
 */
export type Severity = 'info' | 'low' | 'moderate' | 'high' | 'critical';

export interface AllowlistEntry {
  /** GHSA ID (GHSA-xxxx-xxxx-xxxx) or the advisory URL. */
  advisory: string;
  package: string;
  reason: string;
  /** YYYY-MM-DD; the entry stops applying after this day, so every exception is revisited. */
  expires: string;
}

export interface Advisory {
  id: string;
  package: string;
  severity: Severity;
  title: string;
  url: string;
}

export type AuditOutcome =
  | { kind: 'unreachable'; detail: string }
  | { kind: 'failed'; detail: string }
  | { kind: 'checked'; failing: Advisory[]; allowed: Advisory[]; ignored: Advisory[]; problems: string[] };

const BLOCKING: readonly Severity[] = ['high', 'critical'];
const GHSA = /GHSA-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}/i;

interface AuditVia {
  source?: number;
  name?: string;
  title?: string;
  url?: string;
  severity?: Severity;
}

interface AuditReport {
  vulnerabilities?: Record<string, { name?: string; via?: (AuditVia | string)[] }>;
  message?: string;
  statusCode?: number;
  error?: { code?: string; summary?: string; detail?: string } | string;
}

/** HTTP answers meaning "no audit service here" (a package-only mirror or proxy). */
const NOT_OFFERED = new Set([403, 404, 405, 501]);
/** Network failures: the service was never reached. */
const NETWORK_CODES =
  /^(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ECONNABORTED|EPIPE|ERR_SOCKET_TIMEOUT|ESOCKETTIMEDOUT|FETCH_ERROR|ECERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)$/;
const NETWORK_TEXT =
  /getaddrinfo|request to \S+ failed|network|socket hang up|timed? ?out|ECONNREFUSED|ENOTFOUND/i;

/** Whether a report without vulnerabilities says the service was not reached (else it answered). */
function notReached(report: AuditReport): boolean {
  if (report.statusCode !== undefined) return NOT_OFFERED.has(report.statusCode);
  const error = typeof report.error === 'object' ? report.error : undefined;
  if (error?.code && NETWORK_CODES.test(error.code)) return true;
  const text = [
    report.message,
    error?.summary,
    error?.detail,
    typeof report.error === 'string' ? report.error : '',
  ]
    .filter(Boolean)
    .join(' ');
  return NETWORK_TEXT.test(text);
}

function advisoryId(via: AuditVia): string {
  return via.url?.match(GHSA)?.[0]?.toUpperCase() ?? (via.url || `npm-${via.source ?? 'unknown'}`);
}

/** The advisories of a report (each once), taken from the `via` objects that describe them. */
export function advisoriesOf(report: AuditReport): Advisory[] {
  const byId = new Map<string, Advisory>();
  for (const [name, vulnerability] of Object.entries(report.vulnerabilities ?? {})) {
    for (const via of vulnerability.via ?? []) {
      if (typeof via === 'string') continue; // points at another package's entry
      const id = advisoryId(via);
      byId.set(`${id}|${via.name ?? name}`, {
        id,
        package: via.name ?? name,
        severity: via.severity ?? 'info',
        title: via.title ?? '',
        url: via.url ?? '',
      });
    }
  }
  return [...byId.values()];
}

/** Problems with the allowlist itself: an exception without a reason or expiry is not one. */
export function allowlistProblems(entries: AllowlistEntry[]): string[] {
  return entries.flatMap((entry, i) => {
    const problems: string[] = [];
    if (!entry.advisory?.trim()) problems.push(`entry ${i}: advisory missing`);
    if (!entry.package?.trim()) problems.push(`entry ${i}: package missing`);
    if (!entry.reason || entry.reason.trim().length < 20) {
      problems.push(`entry ${i} (${entry.advisory}): a reason of at least 20 characters is required`);
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(entry.expires ?? '') || Number.isNaN(Date.parse(entry.expires))) {
      problems.push(`entry ${i} (${entry.advisory}): expires must be a YYYY-MM-DD date`);
    }
    return problems;
  });
}

function isAllowed(advisory: Advisory, entries: AllowlistEntry[], now: Date): boolean {
  return entries.some((entry) => {
    const id = entry.advisory.match(GHSA)?.[0]?.toUpperCase() ?? entry.advisory;
    const endOfDay = Date.parse(`${entry.expires}T23:59:59.999Z`);
    return (
      (id === advisory.id || entry.advisory === advisory.url) &&
      entry.package === advisory.package &&
      Number.isFinite(endOfDay) &&
      now.getTime() <= endOfDay
    );
  });
}

/** The decision, from npm's JSON output (or its absence). */
export function evaluateAudit(
  npmOutput: string,
  allowlist: AllowlistEntry[],
  now: Date = new Date(),
): AuditOutcome {
  let report: AuditReport;
  try {
    report = JSON.parse(npmOutput) as AuditReport;
  } catch {
    // Nothing at all: npm could not run the request (no network). Something else: it answered oddly.
    return npmOutput.trim() === ''
      ? { kind: 'unreachable', detail: 'npm audit printed nothing' }
      : { kind: 'failed', detail: 'npm audit printed something that is not a JSON report' };
  }
  if (!report.vulnerabilities) {
    const error = typeof report.error === 'object' ? report.error : undefined;
    const detail =
      [report.message, error?.code, error?.summary].filter(Boolean).join(': ') ||
      'npm audit returned no vulnerability report';
    return notReached(report) ? { kind: 'unreachable', detail } : { kind: 'failed', detail };
  }
  const problems = allowlistProblems(allowlist);
  const advisories = advisoriesOf(report);
  const blocking = advisories.filter((a) => BLOCKING.includes(a.severity));
  return {
    kind: 'checked',
    failing: blocking.filter((a) => !isAllowed(a, allowlist, now)),
    allowed: blocking.filter((a) => isAllowed(a, allowlist, now)),
    ignored: advisories.filter((a) => !BLOCKING.includes(a.severity)),
    problems,
  };
}

function runNpmAudit(cwd: string): Promise<string> {
  return new Promise((done) => {
    execFile(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      ['audit', '--omit=dev', '--json'],
      { cwd, maxBuffer: 64 * 1024 * 1024, timeout: 120_000, shell: process.platform === 'win32' },
      // npm audit exits 1 when it finds anything; the JSON on stdout is what counts.
      (_error, stdout) => done(stdout),
    );
  });
}

async function main(argv: string[]): Promise<number> {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const reportArg = argv.indexOf('--report');
  const output =
    reportArg >= 0 && argv[reportArg + 1]
      ? await readFile(resolve(argv[reportArg + 1] as string), 'utf8')
      : await runNpmAudit(root);
  const allowlist = JSON.parse(await readFile(resolve(root, 'scripts/audit-allowlist.json'), 'utf8')) as {
    allow: AllowlistEntry[];
  };
  const outcome = evaluateAudit(output, allowlist.allow);
  if (outcome.kind === 'unreachable') {
    const strict = process.env.SIS_AUDIT_STRICT === '1';
    console.warn(
      `WARNING: npm audit could not be completed (${outcome.detail}). Production dependencies were NOT checked for known vulnerabilities.${strict ? '' : ' Not failing (set SIS_AUDIT_STRICT=1 to fail).'}`,
    );
    return strict ? 2 : 0;
  }
  if (outcome.kind === 'failed') {
    console.error(
      `FAILED: the audit service answered, but npm audit did not complete (${outcome.detail}). Production dependencies were NOT checked; fix the cause (lock file, registry) or retry.`,
    );
    return 1;
  }
  for (const problem of outcome.problems) console.error(`audit allowlist: ${problem}`);
  for (const a of outcome.allowed)
    console.log(`allowed  ${a.severity.padEnd(8)} ${a.package} ${a.id} ${a.title}`);
  for (const a of outcome.failing)
    console.error(`FAILING  ${a.severity.padEnd(8)} ${a.package} ${a.id} ${a.title} ${a.url}`);
  console.log(
    `npm audit --omit=dev: checked (the audit service answered): ${outcome.failing.length} unallowed high/critical, ${outcome.allowed.length} allowed, ${outcome.ignored.length} below high`,
  );
  return outcome.failing.length > 0 || outcome.problems.length > 0 ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`audit-check failed: ${(error as Error).message}`);
      process.exit(2);
    },
  );
}
