import { Badge } from '../../components/common';
import { attackHref } from '../../format';
import type { Finding } from '../../types';
import { EvidenceItem } from './evidence-item';

export function FindingView({ finding }: { finding: Finding & { sources?: unknown } }) {
  const sources = Array.isArray(finding.sources) ? finding.sources : [];
  return (
    <article class="finding" aria-labelledby={`f-${finding.finding_id}`}>
      <h3 id={`f-${finding.finding_id}`}>
        <Badge kind={finding.severity}>{finding.severity}</Badge> {finding.title}
      </h3>
      <p>{finding.description}</p>
      <p class="muted">{finding.impact}</p>
      <dl class="facts">
        <div>
          <dt>Score</dt>
          <dd>{finding.score}</dd>
        </div>
        <div>
          <dt>Category</dt>
          <dd>{finding.category.replace(/_/g, ' ')}</dd>
        </div>
        <div>
          <dt>Source</dt>
          <dd>
            <code>{finding.source_tool}</code>
            {sources.map((source, index) => (
              <span key={index}>, {typeof source === 'string' ? source : sourceLabel(source)}</span>
            ))}
          </dd>
        </div>
      </dl>
      {finding.evidence.length > 0 && (
        <>
          <h4>Evidence</h4>
          <ul class="evidence">
            {finding.evidence.map((value) => (
              <li key={value}>
                <EvidenceItem value={value} />
              </li>
            ))}
          </ul>
        </>
      )}
      {finding.attack && finding.attack.length > 0 && (
        <ul class="tags" aria-label="MITRE ATT&CK techniques">
          {finding.attack.map((technique) => (
            <li key={technique.id}>
              <a href={attackHref(technique.id)} target="_blank" rel="noopener noreferrer">
                {technique.id} {technique.name}
              </a>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

function sourceLabel(source: unknown): string {
  if (source && typeof source === 'object') {
    const record = source as Record<string, unknown>;
    return String(record.name ?? record.provider ?? record.connector ?? JSON.stringify(source));
  }
  return String(source);
}
