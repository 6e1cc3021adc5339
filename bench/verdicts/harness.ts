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

/**
 * The verdict evaluation's machinery (bench/verdicts/run.ts runs it on the corpus): a deterministic
 * split into a tuning half and a held-out half, the real domain_analysis tool and the real scoring on
 * each name, offline (no connectors, no tenant data), and the rates and confusion matrix per class.
 */

export type CorpusClass = 'phishing' | 'popular' | 'legitimate_lookalike';
export const MALICIOUS_CLASSES: readonly CorpusClass[] = ['phishing'];
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

/** Runs domain_analysis and the scoring on one name, as an investigation with no other tool would. */
export async function judge(name: LabelledName, offline: OfflineIntel, now = new Date()): Promise<Judged> {
  let entity: ReturnType<typeof normaliseEntity>;
  try {
    entity = normaliseEntity({ type: 'domain', value: name.domain });
  } catch {
    return { ...name, verdict: 'invalid', risk: 0, findings: [] };
  }
  // An IP literal in a domain list is investigated as an IP: not a domain name to judge here.
  if (entity.type !== 'domain') return { ...name, verdict: 'invalid', risk: 0, findings: [] };
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
      verdicts,
    };
  });
}

export function formatTable(title: string, results: readonly ClassResult[]): string {
  const pct = (r: number) => `${(r * 100).toFixed(1)} %`;
  const rows = results.map((r) => {
    const kind = MALICIOUS_CLASSES.includes(r.label) ? 'detected' : 'false positives';
    const v = r.verdicts;
    return `| ${r.label} | ${r.total} | ${r.flagged} (${pct(r.rate)} ${kind}) | ${v.malicious} | ${v.suspicious} | ${v.unknown} | ${v.benign} | ${v.invalid} |`;
  });
  return [
    `### ${title}`,
    '',
    '| class | names | flagged suspicious or worse | malicious | suspicious | unknown | benign | not a domain |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
