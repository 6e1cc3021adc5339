import { api } from '../api';
import { pageHref } from '../base';
import { Badge, EntityText, ErrorNote, Loading, PageTitle } from '../components/common';
import { InvestigateButton } from '../components/investigate-button';
import { RecordTable } from '../components/record-table';
import { graphHref, sessionHref, when } from '../format';
import { useApi } from '../hooks';
import type { Incident } from '../types';

/** /incidents/{id}: the page an incident's `link` opens. */
export function IncidentPage({ id }: { id: string }) {
  const { data: incident, error } = useApi(
    () => api<Incident>('GET', `/incidents/${encodeURIComponent(id)}`),
    [id],
  );

  return (
    <>
      <PageTitle>{incident ? incident.title : `Incident ${id}`}</PageTitle>
      <p>
        <a href={pageHref('/incidents')}>All incidents</a>
      </p>
      <ErrorNote error={error} />
      {!incident && !error && <Loading what="the incident" />}
      {incident && (
        <>
          <section class="panel" aria-label="Incident">
            <dl class="facts">
              <div>
                <dt>Severity</dt>
                <dd>
                  <Badge kind={incident.severity}>{incident.severity}</Badge>
                </dd>
              </div>
              <div>
                <dt>Status</dt>
                <dd>{incident.status}</dd>
              </div>
              <div>
                <dt>Raised</dt>
                <dd>{when(incident.created_at)}</dd>
              </div>
              <div>
                <dt>Updated</dt>
                <dd>{when(incident.updated_at)}</dd>
              </div>
              <div>
                <dt>Source</dt>
                <dd>
                  {incident.source}
                  {incident.source_id && (
                    <>
                      {' '}
                      <code>{incident.source_id}</code>
                    </>
                  )}
                </dd>
              </div>
              <div>
                <dt>Written by</dt>
                <dd data-testid="incident-origin">{originText(incident.origin)}</dd>
              </div>
            </dl>
            {incident.source_url && incident.origin?.kind === 'pull' ? (
              <p>
                <a href={incident.source_url} target="_blank" rel="noopener noreferrer">
                  Open in {incident.source} (SIEM)
                </a>
              </p>
            ) : incident.source_url ? (
              <p data-testid="incident-external-link">
                External link, given by {originText(incident.origin)} and not checked:{' '}
                <a href={incident.source_url} target="_blank" rel="noopener noreferrer nofollow">
                  {linkHost(incident.source_url)}
                </a>
              </p>
            ) : (
              <p class="muted">The SIEM gave no link to this incident.</p>
            )}
          </section>
          {incident.description && (
            <>
              <h2>Description</h2>
              <p class="summary">{incident.description}</p>
            </>
          )}
          <h2>Entities ({incident.entities.length})</h2>
          {incident.entities.some((entity) => entity.session_id) && (
            <p class="muted">
              Verdicts and risk scores come from the investigations started when the incident arrived
              (auto-investigation, docs/soar.md); open one for its report.
            </p>
          )}
          {incident.entities.length === 0 ? (
            <p>The incident names no entities.</p>
          ) : (
            <RecordTable
              caption="Entities involved in the incident"
              columns={['Entity', 'Verdict', 'Risk', 'Investigation', 'Knowledge graph', 'Investigate']}
            >
              {incident.entities.map((entity) => (
                <tr key={`${entity.type}:${entity.value}`}>
                  <td>
                    <EntityText type={entity.type} value={entity.value} />
                  </td>
                  <td>{entity.verdict ? <Badge kind={entity.verdict}>{entity.verdict}</Badge> : '—'}</td>
                  <td>{entity.risk_score ?? '—'}</td>
                  <td>
                    {entity.session_id ? (
                      <a href={sessionHref(entity.session_id)}>
                        {entity.verdict ? 'Report' : 'Session'}
                        <span class="visually-hidden"> of the investigation of {entity.value}</span>
                      </a>
                    ) : (
                      <span class="muted">not investigated automatically</span>
                    )}
                  </td>
                  <td>
                    <a href={graphHref(entity)}>
                      Neighbourhood<span class="visually-hidden"> of {entity.value}</span>
                    </a>
                  </td>
                  <td>
                    <InvestigateButton entity={entity} label={`Investigate ${entity.value}`} />
                  </td>
                </tr>
              ))}
            </RecordTable>
          )}
        </>
      )}
    </>
  );
}

/** Who wrote the stored copy, in words: a pushed copy names its key, so it is never taken for the SIEM's own. */
function originText(origin: Incident['origin']): string {
  if (!origin) return 'an earlier version (origin not recorded)';
  if (origin.kind === 'pull') return `this deployment's pull from ${origin.connector}`;
  if (origin.kind === 'demo') return 'the demo data';
  return `a push by API key ${origin.key_id}`;
}

function linkHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
