import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { ApiError } from '../api';
import { pageHref } from '../base';
import { EntityText, ErrorNote, Loading, PageTitle } from '../components/common';
import { fetchGraph, NeighbourTable } from '../components/graph/graph-panel';
import { GraphView } from '../components/graph/graph-view';
import { InvestigateButton } from '../components/investigate-button';
import { graphHref, when } from '../format';
import { useApi } from '../hooks';
import type { Entity } from '../types';

/** /graph/{value}?type=&depth=: an entity's neighbourhood; clicking a neighbour pivots to it. */
export function GraphPage({ value }: { value?: string }) {
  const { query, route } = useLocation();
  const type = query.type as Entity['type'] | undefined;
  const depth = query.depth === '2' ? 2 : 1;
  const [draft, setDraft] = useState(value ?? '');
  useEffect(() => setDraft(value ?? ''), [value]);
  const { data: graph, error } = useApi(
    value ? () => fetchGraph({ value, ...(type ? { type } : {}) }, depth) : undefined,
    [value, type, depth],
  );

  const lookUp = (event: Event) => {
    event.preventDefault();
    const text = draft.trim();
    if (text) route(pageHref(`/graph/${encodeURIComponent(text)}`));
  };
  const setDepth = (next: number) => {
    const params = new URLSearchParams();
    if (type) params.set('type', type);
    if (next === 2) params.set('depth', '2');
    const search = params.toString();
    route(pageHref(`/graph/${encodeURIComponent(value ?? '')}${search ? `?${search}` : ''}`));
  };

  return (
    <>
      <PageTitle>{value ? `Knowledge graph: ${value}` : 'Knowledge graph'}</PageTitle>
      <search>
        <form class="inline" onSubmit={lookUp}>
          <label>
            Entity to look up
            <input
              name="value"
              required
              value={draft}
              placeholder="IP address, user, host or domain"
              onInput={(e) => setDraft(e.currentTarget.value)}
            />
          </label>
          <button type="submit">Look up</button>
        </form>
      </search>
      {value && (
        <fieldset class="inline">
          <legend>Depth</legend>
          <label>
            <input type="radio" name="depth" checked={depth === 1} onChange={() => setDepth(1)} /> Direct
            neighbours
          </label>
          <label>
            <input type="radio" name="depth" checked={depth === 2} onChange={() => setDepth(2)} /> Two steps
          </label>
        </fieldset>
      )}
      {error instanceof ApiError && error.status === 404 ? (
        <p role="alert">No incident or investigation has named {value} yet.</p>
      ) : (
        <ErrorNote error={error} />
      )}
      {value && !graph && !error && <Loading what="the neighbourhood" />}
      {graph && (
        <>
          <section class="panel" aria-label="Entity">
            <dl class="facts">
              <div>
                <dt>Entity</dt>
                <dd>
                  <EntityText type={graph.entity.type} value={graph.entity.value} />
                </dd>
              </div>
              <div>
                <dt>Latest risk score</dt>
                <dd>{graph.entity.risk_score ?? '—'}</dd>
              </div>
              <div>
                <dt>Incidents</dt>
                <dd>{graph.entity.incident_count}</dd>
              </div>
              <div>
                <dt>Investigations</dt>
                <dd>{graph.entity.investigation_count}</dd>
              </div>
              <div>
                <dt>First seen</dt>
                <dd>{when(graph.entity.first_seen)}</dd>
              </div>
              <div>
                <dt>Last seen</dt>
                <dd>{when(graph.entity.last_seen)}</dd>
              </div>
            </dl>
            <InvestigateButton entity={graph.entity} />
          </section>
          <GraphView graph={graph} onSelect={(entity) => route(graphHref(entity))} />
          <h2>Connected entities</h2>
          <NeighbourTable graph={graph} />
        </>
      )}
    </>
  );
}
