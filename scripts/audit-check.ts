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
 * POST to /-/npm/v1/security/advisories/bulk). When it cannot be reached the script prints a clear
 * WARNING and exits 0: "not checked" is reported as such, never as "no findings". SIS_AUDIT_STRICT=1
 * turns an unreachable endpoint into a failure (for pipelines that must prove the check ran).
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
  error?: unknown;
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
    return { kind: 'unreachable', detail: 'npm audit printed no JSON report' };
  }
  if (!report.vulnerabilities) {
    return { kind: 'unreachable', detail: report.message ?? 'npm audit returned no vulnerability report' };
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
  for (const problem of outcome.problems) console.error(`audit allowlist: ${problem}`);
  for (const a of outcome.allowed)
    console.log(`allowed  ${a.severity.padEnd(8)} ${a.package} ${a.id} ${a.title}`);
  for (const a of outcome.failing)
    console.error(`FAILING  ${a.severity.padEnd(8)} ${a.package} ${a.id} ${a.title} ${a.url}`);
  console.log(
    `npm audit --omit=dev: ${outcome.failing.length} unallowed high/critical, ${outcome.allowed.length} allowed, ${outcome.ignored.length} below high`,
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
