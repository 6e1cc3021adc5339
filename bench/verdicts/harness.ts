import { createHash } from 'node:crypto';
import { normaliseEntity } from '../../shared/domain/core/entity-normalisation';
import type {
  InvestigationData,
  OfflineIntel,
  ToolContext,
  Verdict,
} from '../../shared/domain/core/vocabulary';
import { coverageOf } from '../../shared/domain/investigation/scoring';
import { runToolByName } from '../../shared/domain/investigation/tools/tools';
import { assess } from '../../shared/domain/investigation/verdict';
import { type NameData, nameDataOf } from '../../shared/domain/names/name-data';

/**
 * The verdict evaluation's machinery (bench/verdicts/run.ts runs it on the corpus): a deterministic
 * split into a tuning half and a held-out half, the real domain_analysis tool and the real scoring on
 * each name, offline (no connectors, no tenant data), and the rates and confusion matrix per class.
 */

export type CorpusClass =
  | 'crypto_phishing'
  | 'popular'
  | 'legitimate_lookalike'
  | 'university_non_english'
  | 'university_other'
  | 'mail_provider'
  | 'brand_secondary';
export const MALICIOUS_CLASSES: readonly CorpusClass[] = ['crypto_phishing'];
export type Split = 'tuning' | 'held_out';

export interface LabelledName {
  domain: string;
  label: CorpusClass;
}

/** Stable split by a hash of the name (salted, so it is not the order of any list). */
export function splitOf(domain: string): Split {
  const byte = createHash('sha256').update(`sis-verdicts-eval-v1:${domain}`).digest()[0]!;
  return byte % 2 === 0 ? 'tuning' : 'held_out';
}

/**
 * At most `cap` names of each class, chosen by a second salted hash (independent of the split), so a
 * large class is sampled evenly and the same names are drawn on every run and machine.
 */
export function sampleByHash(
  names: readonly LabelledName[],
  caps: Partial<Record<CorpusClass, number>>,
): LabelledName[] {
  const rank = (domain: string) =>
    createHash('sha256').update(`sis-verdicts-sample-v1:${domain}`).digest('hex');
  const out: LabelledName[] = [];
  for (const label of [...new Set(names.map((n) => n.label))]) {
    const mine = names.filter((n) => n.label === label);
    const cap = caps[label];
    if (cap === undefined || mine.length <= cap) {
      out.push(...mine);
      continue;
    }
    const ranked = mine
      .map((n) => ({ n, r: rank(n.domain) }))
      .sort((a, b) => (a.r < b.r ? -1 : a.r > b.r ? 1 : 0));
    out.push(...ranked.slice(0, cap).map((x) => x.n));
  }
  return out.sort((a, b) => a.domain.localeCompare(b.domain));
}

/** Wilson score interval for a proportion (95 % by default): sound at 0 hits and on small classes. */
export function wilsonInterval(hits: number, n: number, z = 1.959964): { low: number; high: number } {
  if (n === 0) return { low: 0, high: 1 };
  const p = hits / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export interface Judged extends LabelledName {
  verdict: Verdict | 'invalid';
  risk: number;
  findings: string[];
}

/** domain_analysis reads no tenant data; an empty tenant, should it ever ask. */
const NO_TENANT_DATA: InvestigationData = {
  incidentsMentioning: async () => [],
  priorInvestigations: async () => [],
  neighbourhood: async () => [],
  tenantKnowledge: async () => ({ allowlist: [], feedback: [] }),
};

/**
 * The offline data with the catalogue's ownership of one registrable domain hidden: a brand's
 * secondary domain is judged as the rules would judge a lesser-known own domain the catalogue does
 * not list (the brand's other domains and keywords stay).
 */
export function withoutOwnershipOf(offline: OfflineIntel, registrable: string): OfflineIntel {
  const data = nameDataOf(offline);
  if (!data) return offline;
  const hidden: NameData = {
    ...data,
    ownerOf: (domain, floor) => (floor === registrable ? undefined : data.ownerOf(domain, floor)),
  };
  return new Proxy(offline, {
    get(target, property) {
      if (property === 'names') return () => hidden;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Runs domain_analysis and the scoring on one name, as an investigation with no other tool would. */
export async function judge(name: LabelledName, intel: OfflineIntel, now = new Date()): Promise<Judged> {
  let entity: ReturnType<typeof normaliseEntity>;
  try {
    entity = normaliseEntity({ type: 'domain', value: name.domain });
  } catch {
    return { ...name, verdict: 'invalid', risk: 0, findings: [] };
  }
  // An IP literal in a domain list is investigated as an IP: not a domain name to judge here.
  if (entity.type !== 'domain') return { ...name, verdict: 'invalid', risk: 0, findings: [] };
  const offline = name.label === 'brand_secondary' ? withoutOwnershipOf(intel, entity.value) : intel;
  const ctx: ToolContext = { data: NO_TENANT_DATA, now: () => now, offline };
  const call = await runToolByName('domain_analysis', entity, ctx);
  const findings = call.output?.findings ?? [];
  // The report's own rules (verdict.ts): each evidence source once, benign only on positive evidence.
  const { riskScore: risk, verdict } = assess(findings, coverageOf([call]));
  return {
    ...name,
    verdict,
    risk,
    findings: findings.filter((f) => f.score > 0).map((f) => `${f.finding_id}=${f.score}`),
  };
}

export const flagged = (verdict: Judged['verdict']): boolean =>
  verdict === 'malicious' || verdict === 'suspicious';

export interface ClassResult {
  label: CorpusClass;
  total: number;
  flagged: number;
  /** Flagged share: the detection rate of a malicious class, the false-positive rate of a benign one. */
  rate: number;
  /** 95 % Wilson confidence interval of the rate. */
  interval: { low: number; high: number };
  verdicts: Record<Judged['verdict'], number>;
}

export function summarise(judged: readonly Judged[]): ClassResult[] {
  const classes = [...new Set(judged.map((j) => j.label))].sort();
  return classes.map((label) => {
    const mine = judged.filter((j) => j.label === label && j.verdict !== 'invalid');
    const verdicts: ClassResult['verdicts'] = {
      malicious: 0,
      suspicious: 0,
      unknown: 0,
      benign: 0,
      invalid: 0,
    };
    for (const j of judged) if (j.label === label) verdicts[j.verdict]++;
    const hits = mine.filter((j) => flagged(j.verdict)).length;
    return {
      label,
      total: mine.length,
      flagged: hits,
      rate: mine.length === 0 ? 0 : hits / mine.length,
      interval: wilsonInterval(hits, mine.length),
      verdicts,
    };
  });
}

export function formatTable(title: string, results: readonly ClassResult[]): string {
  const pct = (r: number) => `${(r * 100).toFixed(1)} %`;
  const rows = results.map((r) => {
    const kind = MALICIOUS_CLASSES.includes(r.label) ? 'detected' : 'false positives';
    const v = r.verdicts;
    const ci = `${pct(r.interval.low)} – ${pct(r.interval.high)}`;
    return `| ${r.label} | ${r.total} | ${r.flagged} (${pct(r.rate)} ${kind}) | ${ci} | ${v.malicious} | ${v.suspicious} | ${v.unknown} | ${v.benign} | ${v.invalid} |`;
  });
  return [
    `### ${title}`,
    '',
    '| class | names | flagged suspicious or worse | 95 % CI (Wilson) | malicious | suspicious | unknown | benign | not a domain |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** Caps that keep `npm run eval:verdicts` under 10 minutes on the 2-core machine (~30 ms a name). */
export const SAMPLE_CAPS: Partial<Record<CorpusClass, number>> = {
  crypto_phishing: 4000,
  university_other: 2000,
  university_non_english: 2000,
};
