import { Badge, EntityText } from '../../components/common';
import { GraphPanel } from '../../components/graph/graph-panel';
import { TextWithIncidents } from '../../components/incident-reference';
import { LongText } from '../../components/long-text';
import { RecordTable } from '../../components/record-table';
import { factLabel, factValue } from '../../facts';
import { graphHref, when } from '../../format';
import type { ReportResponse } from '../../types';
import { CoverageList } from './coverage-list';
import { EvidenceItem } from './evidence-item';
import { FindingView } from './finding-view';
import { StixLink } from './stix-link';

/** The ended investigation's report: score, summary, facts, findings, related entities, graph. */
export function ReportView({ report: answer }: { report: ReportResponse }) {
  const report = answer.report!;
  const related = report.entities.filter((entity) => entity.role === 'related');
  const attributes = Object.entries(
    report.entities.find((entity) => entity.role === 'investigated')?.attributes ?? {},
  ).filter(([, value]) => value !== null && value !== undefined && typeof value !== 'object');
  const explanation = report.score_explanation;
  // Findings from the graph and incidents are the run's; the panels below read the graph now.
  const asOf = `as of the run ${when(answer.completed_at ?? answer.created_at)}`;
  return (
    <section aria-labelledby="report-heading">
      <h2 id="report-heading">Report</h2>
      <div class="panel score">
        <p>
          Verdict <Badge kind={report.verdict}>{report.verdict}</Badge>
          {report.confidence && <span class="muted"> {report.confidence} confidence</span>}
        </p>
        <p>
          Risk score <strong class="risk">{report.risk_score}</strong>
          <span class="muted"> / 100</span>
        </p>
        <p class="muted">
          {report.coverage.tools_succeeded} of {report.coverage.tools_run} tools completed
          {report.coverage.tools_failed.length > 0 && `; failed: ${report.coverage.tools_failed.join(', ')}`}
          {report.coverage.tools_timed_out.length > 0 &&
            `; timed out: ${report.coverage.tools_timed_out.join(', ')}`}
        </p>
        <StixLink sessionId={answer.session_id} />
      </div>
      <CoverageList sources={report.coverage.sources} />
      <h3>Summary</h3>
      <LongText text={report.summary} label="summary" />
      {attributes.length > 0 && (
        <>
          <h3>About {answer.entity.value}</h3>
          <dl class="facts">
            {attributes.map(([name, value]) => (
              <div key={name}>
                <dt>{factLabel(name)}</dt>
                <dd>{factValue(name, value)}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
      {explanation && explanation.contributions.length > 0 && (
        <>
          <h3>Why this score</h3>
          <p>
            {explanation.verdict_reason}. <span class="muted">{explanation.formula}</span>
          </p>
          <RecordTable
            caption="Points each finding added to the risk score"
            columns={['Finding', 'Source', 'Score', 'Points added']}
          >
            {explanation.contributions.map((c) => (
              <tr key={c.finding_id}>
                <td>{c.title}</td>
                <td>
                  <code>{c.source_tool}</code>
                </td>
                <td>{c.score}</td>
                <td>{c.points}</td>
              </tr>
            ))}
          </RecordTable>
        </>
      )}
      {report.recommendations.length > 0 && (
        <>
          <h3>Recommendations</h3>
          <ul>
            {report.recommendations.map((text) => (
              <li key={text}>
                <TextWithIncidents text={text} />
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>
        Findings ({report.findings.length}) <span class="as-of">{asOf}</span>
      </h3>
      {report.findings.length === 0 && <p>No findings.</p>}
      {report.findings.map((finding) => (
        <FindingView key={finding.finding_id} finding={finding} />
      ))}
      <h3>Related entities and neighbourhood</h3>
      <GraphPanel
        entity={answer.entity}
        fallback={
          related.length === 0 ? <p>No related entities.</p> : <RelatedTable related={related} asOf={asOf} />
        }
      />
    </section>
  );
}

/** The report's related entities, shown while the knowledge graph has none of them. */
function RelatedTable({
  related,
  asOf,
}: {
  related: NonNullable<ReportResponse['report']>['entities'];
  asOf: string;
}) {
  return (
    <RecordTable
      caption={`Entities related to the investigated entity, ${asOf}`}
      columns={['Entity', 'Relationship', 'Evidence']}
    >
      {related.map((entity) => (
        <tr key={`${entity.type}:${entity.value}`}>
          <td>
            <a href={graphHref(entity)}>
              <EntityText type={entity.type} value={entity.value} />
            </a>
          </td>
          <td>{entity.relationship?.replace(/_/g, ' ') ?? '—'}</td>
          <td>
            {(entity.evidence ?? []).map((value, index) => (
              <span key={value}>
                {index > 0 && ', '}
                <EvidenceItem value={value} />
              </span>
            ))}
          </td>
        </tr>
      ))}
    </RecordTable>
  );
}
