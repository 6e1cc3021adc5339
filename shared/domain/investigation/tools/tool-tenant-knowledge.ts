import { type Entity, entityLabel } from '../../core/entity';
import type {
  AllowlistMatch,
  CriticalAssetNote,
  Facts,
  FeedbackRecord,
  Finding,
  TenantKnowledge,
} from '../../core/vocabulary';
import { awaitsApproval, weighReviews } from '../../tenant-knowledge/feedback';
import { confirmedScore, makeFinding } from '../scoring';

/**
 * Findings from what the tenant itself says about an entity (docs/tenant-knowledge.md), made by the
 * prior_investigations tool, which reads them with the earlier verdicts (no tool of its own, so an
 * investigation writes nothing more). Each finding quotes its entry or feedback: who, when, why.
 *
 * - An unexpired allowlist entry covering the entity: benign evidence from `tenant:allowlist`, which
 *   sets the verdict to benign whatever else was found (the other findings stay in the report).
 * - The deciding review of the entity (tenant-knowledge/feedback.ts weighReviews): an admin's false
 *   positive is benign evidence from `feedback` (sets the verdict like the allowlist); a true
 *   positive is confirmed evidence (scoring.ts confirmedScore: 75, losing half every 90 days). An
 *   analyst's false positive awaiting an admin's approval decides only when nothing counts, and then
 *   as `feedback:awaiting_approval`, benign evidence that is not the tenant's word (verdict.ts
 *   AUTHORITATIVE_SOURCES): it cannot outweigh feed or intel evidence. Other reviews are mentioned only.
 * - A critical asset (a host or user an admin declared critical): context, score 0 (importance is not
 *   risk), naming its criticality, owner and reason; the report's recommendations then coordinate
 *   containment with that owner (report/containment.ts).
 */

const day = (at: string) => at.slice(0, 10);

function allowlistFinding(entity: Entity, match: AllowlistMatch, others: number): Finding {
  const scope =
    match.type === 'cidr'
      ? `network ${match.value}`
      : match.type === 'domain' && match.value !== entity.value
        ? `domain ${match.value} and its subdomains`
        : `${match.type} ${match.value}`;
  const expiry = match.expires_at ? `, until ${day(match.expires_at)}` : '';
  const more = others > 0 ? ` ${others} more entries cover it too.` : '';
  return makeFinding({
    tool: 'prior_investigations',
    code: 'allowlisted',
    title: `Allowlisted by the tenant: ${match.reason}`,
    description: `The tenant's allowlist trusts the ${scope} (entry ${match.entry_id}, added by ${match.created_by} on ${day(match.created_at)}${expiry}): "${match.reason}". The allowlist sets the verdict to benign; the other findings are still shown.${more}`,
    impact: `Your organisation has listed ${entityLabel(entity)} as trusted: ${match.reason}`,
    score: 0,
    category: 'tenant_knowledge',
    evidence: [match.entry_id],
    benign: true,
    evidence_source: 'tenant:allowlist',
  });
}

function feedbackFinding(
  entity: Entity,
  latest: FeedbackRecord,
  all: readonly FeedbackRecord[],
  now: Date,
  counts: boolean,
): Finding {
  const quoted = latest.comment ? `: "${latest.comment}"` : ' (no comment)';
  const earlier =
    all.length > 1
      ? ` ${all.length - 1} earlier feedback ${all.length === 2 ? 'entry' : 'entries'} on this entity.`
      : '';
  const was =
    latest.session_verdict != null
      ? ` The reviewed investigation had judged it ${latest.session_verdict} (risk ${latest.session_risk_score ?? 'n/a'}/100).`
      : '';
  if (latest.verdict === 'false_positive' && !counts) {
    return makeFinding({
      tool: 'prior_investigations',
      code: 'feedback_false_positive_awaiting_approval',
      title: `Marked a false positive by ${latest.by} (${day(latest.at)}), awaiting an admin's approval`,
      description: `${latest.by} reviewed an earlier investigation of ${entityLabel(entity)} on ${day(latest.at)} and marked it a false positive${quoted}.${was} Until an admin approves it, the review is benign evidence like any other: it does not outweigh feed or intel evidence.${earlier}`,
      impact: `An analyst found it harmless${quoted}; an admin has not approved the review yet`,
      score: 0,
      category: 'tenant_knowledge',
      evidence: [`feedback ${latest.at}`],
      benign: true,
      evidence_source: 'feedback:awaiting_approval',
    });
  }
  if (latest.verdict === 'false_positive') {
    return makeFinding({
      tool: 'prior_investigations',
      code: 'feedback_false_positive',
      title: `Marked a false positive by ${latest.by} (${day(latest.at)})`,
      description: `${latest.by} reviewed an earlier investigation of ${entityLabel(entity)} on ${day(latest.at)} and marked it a false positive${quoted}.${was} A person's review sets the verdict to benign; the other findings are still shown.${earlier}`,
      impact: `An analyst reviewed it and found it harmless${quoted}`,
      score: 0,
      category: 'tenant_knowledge',
      evidence: [`feedback ${latest.at}`],
      benign: true,
      evidence_source: 'feedback',
    });
  }
  return makeFinding({
    tool: 'prior_investigations',
    code: 'feedback_true_positive',
    title: `Confirmed a true positive by ${latest.by} (${day(latest.at)})`,
    description: `${latest.by} reviewed an earlier investigation of ${entityLabel(entity)} on ${day(latest.at)} and confirmed it a true positive${quoted}.${was} A person's confirmation counts as evidence (75, losing half every 90 days).${earlier}`,
    impact: `An analyst confirmed it is a real threat${quoted}`,
    score: confirmedScore(latest.at, now),
    category: 'tenant_knowledge',
    evidence: [`feedback ${latest.at}`],
    evidence_source: 'feedback',
  });
}

function criticalAssetFinding(entity: Entity, asset: CriticalAssetNote): Finding {
  return makeFinding({
    tool: 'prior_investigations',
    code: 'critical_asset',
    title: `Critical asset (${asset.criticality}), owner ${asset.owner}: ${asset.reason}`,
    description: `The tenant declares ${entityLabel(entity)} a ${asset.criticality}-criticality asset owned by ${asset.owner}: "${asset.reason}". Containment is coordinated with the owner rather than applied directly; criticality is not risk (score 0).`,
    impact: `This is one of your organisation's ${asset.criticality === 'critical' ? 'most critical' : 'important'} assets (owner: ${asset.owner}); cutting it off has a business cost.`,
    score: 0,
    category: 'critical_asset',
    evidence: [`owner: ${asset.owner}`],
    evidence_source: 'tenant:critical_asset',
  });
}

/** The findings and facts of the tenant's knowledge about the entity (none when it has none). */
export function tenantKnowledgeFindings(
  entity: Entity,
  knowledge: TenantKnowledge,
  now: Date,
): { findings: Finding[]; facts: Facts } {
  const findings: Finding[] = [];
  const [entry, ...others] = knowledge.allowlist;
  if (entry) findings.push(allowlistFinding(entity, entry, others.length));
  const { deciding, counts, active: feedback } = weighReviews(knowledge.feedback, now);
  if (deciding) findings.push(feedbackFinding(entity, deciding, feedback, now, counts));
  if (knowledge.critical_asset) findings.push(criticalAssetFinding(entity, knowledge.critical_asset));
  return {
    findings,
    facts: {
      ...(knowledge.critical_asset ? { critical_asset: { ...knowledge.critical_asset } } : {}),
      allowlist_entries: knowledge.allowlist.map((m) => m.entry_id),
      // Like the earlier verdicts, feedback names no session (sessions are confidential per key).
      feedback: feedback
        .slice(0, 5)
        .map((f) => ({ verdict: f.verdict, by: f.by, at: f.at, awaiting_approval: awaitsApproval(f) })),
    },
  };
}
