import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso/router';
import { ApiError, api } from '../../api';
import { graphHref, sessionHref, when } from '../../format';
import { useApi } from '../../hooks';
import type { Entity, GraphAnswer } from '../../types';
import { EntityText, ErrorNote, Loading } from '../common';
import { IncidentReference } from '../incident-reference';
import { RecordTable } from '../record-table';
import { GraphView } from './graph-view';

export function fetchGraph(entity: Entity | { value: string; type?: string }, depth = 1) {
  return api<GraphAnswer>('GET', `/graph/entity/${encodeURIComponent(entity.value)}`, {
    query: { type: entity.type, depth, limit: 50 },
  });
}

export function NeighbourTable({ graph }: { graph: GraphAnswer }) {
  if (graph.neighbors.length === 0) return <p>No connected entities yet.</p>;
  return (
    <RecordTable
      caption={<>Entities connected to {graph.entity.value} now</>}
      columns={['Entity', 'Relationship', 'Risk', 'Links', 'Last seen', 'Evidence']}
    >
      {graph.neighbors.map((n) => (
        <tr key={`${n.type}:${n.value}:${n.relationship}:${n.via?.value ?? ''}`}>
          <td>
            <a href={graphHref(n)}>
              <EntityText type={n.type} value={n.value} />
            </a>
            {n.via && <span class="muted"> via {n.via.value}</span>}
          </td>
          <td>
            {n.relationship.replace(/_/g, ' ')}
            {n.direction && n.direction !== 'both' && <span class="muted"> ({n.direction})</span>}
          </td>
          <td>{n.risk_score ?? '—'}</td>
          <td>{n.count}</td>
          <td>{when(n.last_seen)}</td>
          <td>
            {n.evidence.slice(0, 3).map((id, index) => (
              <span key={id}>
                {index > 0 && ', '}
                {id.startsWith('inc_') ? (
                  <IncidentReference id={id} />
                ) : id.startsWith('s_') ? (
                  <a href={sessionHref(id)}>{id}</a>
                ) : (
                  <code>{id}</code>
                )}
              </span>
            ))}
            {n.evidence.length > 3 && <span class="muted"> and {n.evidence.length - 3} more</span>}
          </td>
        </tr>
      ))}
    </RecordTable>
  );
}

/**
 * The investigated entity's neighbourhood on a session page, with a link to explore it further.
 * `fallback` stands in for the drawing and its table while the entity has no neighbours in the graph.
 */
export function GraphPanel({ entity, fallback }: { entity: Entity; fallback?: ComponentChildren }) {
  const { route } = useLocation();
  const { data: graph, error } = useApi(() => fetchGraph(entity), [entity.type, entity.value]);
  const absent = error instanceof ApiError && error.status === 404;

  if ((absent || graph?.neighbors.length === 0) && fallback) return <>{fallback}</>;
  if (absent) return <p>{entity.value} is not in the knowledge graph yet.</p>;
  if (error) return <ErrorNote error={error} />;
  if (!graph) return <Loading what="the neighbourhood" />;
  return (
    <>
      <h4>
        Neighbours now{' '}
        <span class="as-of">
          live from the knowledge graph: it may have changed since the run, whose findings above are as of its
          end
        </span>
      </h4>
      <GraphView graph={graph} onSelect={(selected) => route(graphHref(selected))} />
      <NeighbourTable graph={graph} />
      <p>
        <a href={graphHref(entity)}>Explore {entity.value} in the knowledge graph</a>
      </p>
    </>
  );
}
