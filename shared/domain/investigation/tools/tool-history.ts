import { type Entity, entityKey, entityLabel, sameEntity } from '../../core/entity';
import type {
  Facts,
  Finding,
  IncidentSeverity,
  IncidentSummary,
  RelatedEntity,
  Tool,
  ToolName,
  ToolOutput,
  ToolRunContext,
} from '../../core/vocabulary';
import { carriesRisk } from '../../graph/graph';
import {
  ageInDays,
  incidentScore,
  independentRisk,
  makeFinding,
  NEIGHBOUR_SCORE_CAP,
  neighbourhoodScore,
  neighbourRisk,
  priorVerdictScore,
} from '../scoring';
import { builtInTool } from './built-in-tool-declarations';
import { tenantKnowledgeFindings } from './tool-tenant-knowledge';

/** Entities of the incidents (other than `subject`), most co-occurrences first, as related entities. */
export function coOccurringEntities(
  subject: Entity,
  incidents: readonly IncidentSummary[],
  limit = 25,
): RelatedEntity[] {
  const byKey = new Map<string, RelatedEntity>();
  for (const incident of incidents) {
    for (const other of incident.entities ?? []) {
      if (sameEntity(other, subject)) continue;
      const key = entityKey(other);
      const related = byKey.get(key) ?? {
        entity: { type: other.type, value: other.value },
        relationship: 'co_occurs_in_incident',
        evidence: [],
      };
      if (!related.evidence.includes(incident.incident_id)) related.evidence.push(incident.incident_id);
      byKey.set(key, related);
    }
  }
  return [...byKey.values()]
    .sort(
      (a, b) =>
        b.evidence.length - a.evidence.length || entityKey(a.entity).localeCompare(entityKey(b.entity)),
    )
    .slice(0, limit);
}

const SEVERITY_ORDER: readonly IncidentSeverity[] = ['critical', 'high', 'medium', 'low', 'informational'];

export interface IncidentDigest {
  facts: Facts;
  score: number;
  /** "2 critical, 1 high" */
  breakdown: string;
  latestDays: number | null;
  ids: string[];
}

export function digestIncidents(incidents: readonly IncidentSummary[], now: Date): IncidentDigest {
  const counts: Record<string, number> = {};
  for (const incident of incidents) counts[incident.severity] = (counts[incident.severity] ?? 0) + 1;
  const latest = incidents.reduce<string | null>(
    (acc, i) => (acc === null || Date.parse(i.created_at) > Date.parse(acc) ? i.created_at : acc),
    null,
  );
  const open = incidents.filter((i) => !/^(resolved|closed)$/i.test(i.status)).length;
  const breakdown = SEVERITY_ORDER.filter((s) => counts[s])
    .map((s) => `${counts[s]} ${s}`)
    .join(', ');
  const ids = incidents.map((i) => i.incident_id);
  return {
    facts: {
      incident_count: incidents.length,
      open_incident_count: open,
      by_severity: counts,
      latest_incident_at: latest,
      incident_ids: ids.slice(0, 20),
    },
    score: incidentScore(incidents, now),
    breakdown,
    latestDays: latest ? ageInDays(latest, now) : null,
    ids,
  };
}

/** One finding summarising incidents that mention `subject` (or an alias of it). */
export function incidentFinding(
  tool: ToolName,
  code: string,
  subject: Entity,
  incidents: readonly IncidentSummary[],
  digest: IncidentDigest,
  aliasNote = '',
): Finding {
  const plural = incidents.length === 1 ? 'incident' : 'incidents';
  const when =
    digest.latestDays === null
      ? ''
      : `, latest ${digest.latestDays === 0 ? 'today' : `${digest.latestDays} days ago`}`;
  const titles = incidents
    .slice(0, 3)
    .map((i) => `"${i.title}" (${i.severity})`)
    .join('; ');
  return makeFinding({
    tool,
    code,
    title: `Mentioned in ${incidents.length} ${plural}${aliasNote} (${digest.breakdown})`,
    description: `${entityLabel(subject)} appears in ${incidents.length} SIEM ${plural}${aliasNote}${when}. Most recent: ${titles}. Weighted by severity and recency.`,
    impact: `It has been involved in ${
      incidents.length === 1
        ? 'a recorded security incident'
        : `${incidents.length} recorded security incidents`
    }${digest.latestDays !== null && digest.latestDays <= 30 ? ' in the last month' : ''}.`,
    score: digest.score,
    category: 'incident_history',
    evidence: digest.ids.slice(0, 20),
  });
}

export const incidentHistory: Tool = {
  ...builtInTool('incident_history'),
  async run(entity: Entity, ctx: ToolRunContext): Promise<ToolOutput> {
    const incidents = await ctx.data.incidentsMentioning(entity, ctx.limits.incidents);
    const digest = digestIncidents(incidents, ctx.now);
    if (incidents.length === 0) {
      return {
        facts: digest.facts,
        findings: [
          makeFinding({
            tool: 'incident_history',
            code: 'no_incidents',
            title: 'No incidents mention it',
            description: `No synced SIEM incident names ${entityLabel(entity)}.`,
            impact: 'It does not appear in any recorded security incident.',
            score: 0,
            category: 'context',
          }),
        ],
        related: [],
      };
    }
    return {
      facts: digest.facts,
      findings: [incidentFinding('incident_history', 'mentioned_in_incidents', entity, incidents, digest)],
      related: coOccurringEntities(entity, incidents),
    };
  },
};

export const priorInvestigations: Tool = {
  ...builtInTool('prior_investigations'),
  async run(entity: Entity, ctx: ToolRunContext): Promise<ToolOutput> {
    const [all, knowledge] = await Promise.all([
      ctx.data.priorInvestigations(entity, ctx.limits.priorInvestigations),
      ctx.data.tenantKnowledge(entity),
    ]);
    const sessions = all.filter((s) => s.session_id !== ctx.sessionId);
    const judged = sessions.filter((s) => s.verdict !== null);
    const verdicts: Record<string, number> = {};
    for (const s of judged) verdicts[s.verdict!] = (verdicts[s.verdict!] ?? 0) + 1;
    const latest = [...judged].sort((a, b) => Date.parse(b.completed_at) - Date.parse(a.completed_at))[0];
    const tenant = tenantKnowledgeFindings(entity, knowledge, ctx.now);
    const facts: Facts = {
      prior_count: sessions.length,
      judged_count: judged.length,
      verdicts,
      // Sessions are confidential per key, and this report may be read by another key: earlier
      // verdicts count as tenant knowledge, but no earlier session is named (not its ID either).
      latest: latest
        ? {
            verdict: latest.verdict,
            risk_score: latest.risk_score,
            completed_at: latest.completed_at,
          }
        : null,
      ...tenant.facts,
    };
    const tool = 'prior_investigations' as const;
    const strongest = judged
      .map((s) => ({ session: s, score: priorVerdictScore(s.verdict!, s.completed_at, ctx.now) }))
      .sort((a, b) => b.score - a.score)[0];

    let finding: Finding;
    if (!latest) {
      finding = makeFinding({
        tool,
        code: 'no_prior_verdicts',
        title: 'Not investigated before',
        description: `No earlier investigation of ${entityLabel(entity)} reached a verdict.`,
        impact: 'It has not been assessed before.',
        score: 0,
        category: 'context',
      });
    } else if (strongest && strongest.score > 0) {
      // Context, not evidence: the earlier verdict rested on findings this run finds again (or no
      // longer finds), so counting it too would make every rerun score higher. A person's
      // confirmation (feedback) is what turns it into evidence.
      const s = strongest.session;
      const days = ageInDays(s.completed_at, ctx.now);
      finding = makeFinding({
        tool,
        code: `prior_${s.verdict}`,
        title: `Previously judged ${s.verdict} (${days === 0 ? 'today' : `${days} days ago`})`,
        description: `An earlier investigation judged ${entityLabel(entity)} ${s.verdict} with risk ${s.risk_score ?? 'n/a'}/100. Verdicts so far: ${Object.entries(
          verdicts,
        )
          .map(([v, n]) => `${n} ${v}`)
          .join(
            ', ',
          )}. Background, not counted again: whatever led to that judgement is re-examined here; a reviewer's confirmation (feedback) would count.`,
        impact: `An earlier assessment already judged it ${s.verdict === 'malicious' ? 'hostile' : 'suspicious'}.`,
        score: 0,
        category: 'prior_verdict',
        evidence: [],
        discounted: { score: strongest.score, reason: PRIOR_CONTEXT_REASON },
      });
    } else {
      finding = makeFinding({
        tool,
        code: `prior_${latest.verdict}`,
        title: `Previously judged ${latest.verdict}`,
        description: `The latest earlier verdict on ${entityLabel(entity)} was ${latest.verdict}.`,
        impact:
          latest.verdict === 'benign'
            ? 'An earlier assessment found no threat.'
            : 'An earlier assessment was inconclusive.',
        score: 0,
        category: 'context',
        evidence: [],
      });
    }
    return { facts, findings: [...tenant.findings, finding], related: [] };
  },
};

const RISK_RANK = { none: 0, suspicious: 1, malicious: 2 } as const;

export const PRIOR_CONTEXT_REASON =
  'a prior verdict is context, not new evidence: its evidence is weighed again by this run (unless a person confirmed it)';

export const graphNeighbourhood: Tool = {
  ...builtInTool('graph_neighbourhood'),
  async run(entity: Entity, ctx: ToolRunContext): Promise<ToolOutput> {
    // A TLP:RED neighbour is named only in a TLP:RED investigation's report.
    const redVisible = ctx.tlp === 'red';
    const neighbours = (await ctx.data.neighbourhood(entity, ctx.limits.neighbours)).filter(
      (n) => !sameEntity(n.entity, entity) && (redVisible || n.tlp !== 'red'),
    );
    const byRelationship: Record<string, number> = {};
    const byType: Record<string, number> = {};
    for (const n of neighbours) {
      byRelationship[n.relationship] = (byRelationship[n.relationship] ?? 0) + 1;
      byType[n.entity.type] = (byType[n.entity.type] ?? 0) + 1;
    }
    const subject = entityKey(entity);
    const assessed = neighbours.map((n) => {
      const independent = independentRisk(n, subject);
      const carried = carriesRisk(n.relationship, n.direction);
      return {
        neighbour: n,
        carried,
        stated: neighbourRisk(n),
        // Across a link that passes no risk (an impersonation, a subdomain's risk toward its parent)
        // the neighbour counts for nothing; a neighbour scored before the basis existed counts as it stands.
        risk: !carried
          ? null
          : n.risk_basis
            ? neighbourRisk({ risk_score: independent.risk })
            : neighbourRisk(n),
        leftOut: independent.left_out,
      };
    });
    // One neighbour counts once, by its strongest link, however many edges lead to it.
    const strongest = new Map<string, (typeof assessed)[number]>();
    for (const r of assessed) {
      const key = entityKey(r.neighbour.entity);
      const seen = strongest.get(key);
      if (!seen || RISK_RANK[r.risk ?? 'none'] > RISK_RANK[seen.risk ?? 'none']) strongest.set(key, r);
    }
    const risky = [...strongest.values()].filter(
      (r): r is (typeof assessed)[number] & { risk: 'malicious' | 'suspicious' } => r.risk !== null,
    );
    // Neighbours judged risky only on evidence that involves this entity: counted once, here, by the
    // tools that found that evidence (an incident both are in, or the neighbour's link to this one).
    const circular = assessed.filter((r) => r.carried && r.stated !== null && r.risk !== r.stated);
    const uncarried = assessed.filter((r) => !r.carried && r.stated !== null);
    const malicious = risky.filter((r) => r.risk === 'malicious');
    const suspicious = risky.filter((r) => r.risk === 'suspicious');
    const facts: Facts = {
      neighbour_count: neighbours.length,
      by_relationship: byRelationship,
      by_type: byType,
      high_risk_neighbours: risky.slice(0, 20).map((r) => ({
        type: r.neighbour.entity.type,
        value: r.neighbour.entity.value,
        relationship: r.neighbour.relationship,
        verdict: r.neighbour.verdict ?? null,
        risk_score: r.neighbour.risk_score ?? null,
      })),
      discounted_neighbours: circular.slice(0, 20).map((r) => ({
        type: r.neighbour.entity.type,
        value: r.neighbour.entity.value,
        risk_score: r.neighbour.risk_score ?? null,
        counted_as: r.risk ?? 'not risky',
        left_out: r.leftOut.map((e) => e.source),
      })),
      ...(uncarried.length > 0
        ? {
            links_passing_no_risk: uncarried.slice(0, 20).map((r) => ({
              type: r.neighbour.entity.type,
              value: r.neighbour.entity.value,
              relationship: r.neighbour.relationship,
              risk_score: r.neighbour.risk_score ?? null,
            })),
          }
        : {}),
    };
    const fullScore = neighbourhoodScore({
      malicious: assessed.filter((r) => r.carried && r.stated === 'malicious').length,
      suspicious: assessed.filter((r) => r.carried && r.stated === 'suspicious').length,
    });
    const discountNote =
      circular.length > 0
        ? ` Left out, resting on ${entityLabel(entity)} itself (shared incidents, or their link to it), already weighed here: ${circular
            .slice(0, 5)
            .map((r) => entityLabel(r.neighbour.entity))
            .join('; ')}.`
        : '';
    const uncarriedNote =
      uncarried.length > 0
        ? ` Not counted, their link passes no risk to ${entityLabel(entity)} (an impersonator says nothing about what it imitates): ${uncarried
            .slice(0, 5)
            .map((r) => `${entityLabel(r.neighbour.entity)} (via ${r.neighbour.relationship})`)
            .join('; ')}.`
        : '';
    const discounted = (score: number) =>
      circular.length > 0 && fullScore > score
        ? {
            discounted: {
              score: fullScore,
              reason: `${circular.length === 1 ? 'a neighbour is' : `${circular.length} neighbours are`} risky only because of evidence involving this entity (${circular
                .slice(0, 3)
                .map((r) => entityKey(r.neighbour.entity))
                .join(', ')}): counted once, by the tools that found it`,
            },
          }
        : {};
    const related: RelatedEntity[] = neighbours.map((n) => ({
      entity: { type: n.entity.type, value: n.entity.value },
      relationship: n.relationship,
      // Graph evidence holds incident and session IDs; only incidents (tenant-wide) are named.
      evidence: [...(n.evidence ?? [])].filter((id) => id.startsWith('inc_')).slice(0, 20),
      known: true,
    }));
    const tool = 'graph_neighbourhood' as const;
    let finding: Finding;
    if (risky.length > 0) {
      const names = risky
        .slice(0, 5)
        .map((r) => `${entityLabel(r.neighbour.entity)} (${r.risk}, via ${r.neighbour.relationship})`);
      const score = neighbourhoodScore({ malicious: malicious.length, suspicious: suspicious.length });
      finding = makeFinding({
        tool,
        code: 'linked_to_high_risk',
        title: `Linked to ${malicious.length} malicious and ${suspicious.length} suspicious entities`,
        description: `In the knowledge graph ${entityLabel(entity)} is linked to ${names.join('; ')}. Association is capped at ${NEIGHBOUR_SCORE_CAP}: it is never proof on its own. Neighbours count solely for findings independent of this entity.${discountNote}${uncarriedNote}`,
        impact: `It is connected to ${risky.length} other ${risky.length === 1 ? 'item' : 'items'} already assessed as risky.`,
        score,
        category: 'association',
        // The neighbours, and what their counted risk rests on, so a later run of any of them can tell
        // whether this association rests on itself (scoring.ts riskBasisOf, independentRisk).
        evidence: [
          ...new Set([
            ...risky.map((r) => entityKey(r.neighbour.entity)),
            ...risky.flatMap((r) =>
              (r.neighbour.risk_basis ?? [])
                .filter((e) => !r.leftOut.includes(e))
                .flatMap((e) => e.refs.filter((ref) => !ref.startsWith('inc_'))),
            ),
          ]),
        ].slice(0, 20),
        ...discounted(score),
      });
    } else {
      finding = makeFinding({
        tool,
        ...discounted(0),
        code: neighbours.length === 0 ? 'not_in_graph' : 'no_high_risk_links',
        title:
          neighbours.length === 0
            ? 'No known relationships'
            : `${neighbours.length} known neighbours, none high-risk`,
        description:
          neighbours.length === 0
            ? `${entityLabel(entity)} has no edges in the knowledge graph yet.`
            : `${entityLabel(entity)} has ${neighbours.length} neighbours (${Object.entries(byRelationship)
                .map(([r, n]) => `${n} ${r}`)
                .join(
                  ', ',
                )}); ${uncarried.length > 0 ? 'none whose link passes risk' : 'none'} has been judged suspicious or malicious.${discountNote}${uncarriedNote}`,
        impact: 'It is not connected to anything already assessed as risky.',
        score: 0,
        category: 'context',
      });
    }
    return { facts, findings: [finding], related };
  },
};
