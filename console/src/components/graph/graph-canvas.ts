import cytoscape from 'cytoscape';
import type { Entity, GraphAnswer } from '../../types';
import { RISK_COLOURS, riskBand, TYPE_SHAPES } from './graph-legend';

/**
 * The graph drawing, in its own chunk with the graph library: only pages that draw a graph load it.
 * The layout is deterministic (concentric rings by depth, neighbours in a fixed order), so the same
 * neighbourhood is drawn the same way on every machine.
 */
// Cytoscape injects a <style> element unless one with this ID exists; the CSP forbids inline styles,
// so a placeholder stands in and the console's stylesheet carries the one rule it would have added.
const STYLESHEET_ID = '__________cytoscape_stylesheet';

const key = (entity: Entity) => `${entity.type}:${entity.value}`;
const short = (value: string) => (value.length > 24 ? `${value.slice(0, 22)}…` : value);
/** Past this many links the relationship names are left to the table: their labels would overlap. */
const MAX_EDGE_LABELS = 6;

export function drawGraph(
  container: HTMLElement,
  graph: GraphAnswer,
  onSelect: (entity: Entity) => void,
): () => void {
  if (!document.getElementById(STYLESHEET_ID)) {
    const placeholder = document.createElement('meta');
    placeholder.id = STYLESHEET_ID;
    document.head.append(placeholder);
  }
  const centre = key(graph.entity);
  const neighbours = [...graph.neighbors].sort(
    (a, b) =>
      a.depth - b.depth || a.relationship.localeCompare(b.relationship) || key(a).localeCompare(key(b)),
  );
  const nodes = new Map<string, { entity: Entity; depth: number; risk?: number | undefined }>([
    [
      centre,
      {
        entity: { type: graph.entity.type, value: graph.entity.value },
        depth: 0,
        risk: graph.entity.risk_score,
      },
    ],
  ]);
  const edges = new Map<string, { source: string; target: string; label: string; count: number }>();
  for (const neighbour of neighbours) {
    const id = key(neighbour);
    if (!nodes.has(id)) {
      nodes.set(id, {
        entity: { type: neighbour.type, value: neighbour.value },
        depth: neighbour.depth,
        risk: neighbour.risk_score,
      });
    }
    const from = neighbour.via ? key(neighbour.via) : centre;
    if (!nodes.has(from) && neighbour.via) nodes.set(from, { entity: neighbour.via, depth: 1 });
    const [source, target] = neighbour.direction === 'in' ? [id, from] : [from, id];
    const edgeId = `${source}|${target}|${neighbour.relationship}`;
    if (!edges.has(edgeId)) {
      edges.set(edgeId, {
        source,
        target,
        label: neighbour.relationship.replace(/_/g, ' '),
        count: neighbour.count,
      });
    }
  }

  const cy = cytoscape({
    container,
    elements: [
      ...[...nodes].map(([id, node]) => ({
        data: {
          id,
          label: short(node.entity.value),
          type: node.entity.type,
          value: node.entity.value,
          depth: node.depth,
          // The latest investigation's score of each entity; grey where none scored it.
          colour: RISK_COLOURS[riskBand(node.risk)],
          shape: TYPE_SHAPES[node.entity.type] ?? 'ellipse',
        },
        classes: node.depth === 0 ? 'centre' : '',
      })),
      ...[...edges].map(([id, edge]) => ({ data: { id, ...edge } })),
    ],
    style: [
      {
        selector: 'node',
        style: {
          'background-color': 'data(colour)',
          shape: 'data(shape)' as never,
          'border-width': 1,
          'border-color': '#ffffff',
          label: 'data(label)',
          color: '#1a1a1a',
          'font-size': 11,
          'text-valign': 'bottom',
          'text-margin-y': 4,
          'text-wrap': 'ellipsis',
          'text-max-width': '140px',
          'text-background-color': '#ffffff',
          'text-background-opacity': 0.85,
          'text-background-padding': '1px',
          width: 22,
          height: 22,
        },
      },
      { selector: 'node.centre', style: { width: 38, height: 38, 'font-weight': 'bold', 'font-size': 13 } },
      {
        selector: 'edge',
        style: {
          width: 'mapData(count, 1, 10, 1, 5)',
          'line-color': '#9aa3ad',
          'curve-style': 'bezier',
          'target-arrow-shape': 'triangle',
          'target-arrow-color': '#9aa3ad',
          label: edges.size <= MAX_EDGE_LABELS ? 'data(label)' : '',
          'text-rotation': 'autorotate',
          'font-size': 9,
          color: '#454b52',
          'text-background-color': '#fbfcfd',
          'text-background-opacity': 1,
          'text-background-padding': '2px',
        },
      },
    ],
    layout: {
      name: 'concentric',
      concentric: (node) => 10 - Number(node.data('depth')),
      levelWidth: () => 1,
      minNodeSpacing: 110,
      animate: false,
    },
    // A neighbourhood of two nodes would otherwise be zoomed to fill the whole frame.
    maxZoom: 1.4,
    minZoom: 0.2,
    userZoomingEnabled: true,
    boxSelectionEnabled: false,
    autoungrabify: true,
  });
  cy.on('tap', 'node', (event) => {
    const data = event.target.data() as { type: Entity['type']; value: string; depth: number };
    if (data.depth !== 0) onSelect({ type: data.type, value: data.value });
  });
  return () => cy.destroy();
}
