import { useEffect, useRef, useState } from 'preact/hooks';
import type { Entity, GraphAnswer } from '../../types';
import { GraphLegend } from './graph-legend';

/**
 * Draws a neighbourhood once the graph chunk has loaded. The drawing is a picture for pointer users
 * (click a node to pivot); the table next to it carries the same neighbours for keyboards and screen
 * readers.
 */
export function GraphView({ graph, onSelect }: { graph: GraphAnswer; onSelect: (entity: Entity) => void }) {
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const select = useRef(onSelect);
  select.current = onSelect;

  useEffect(() => {
    let destroy: (() => void) | undefined;
    let live = true;
    import('./graph-canvas')
      .then(({ drawGraph }) => {
        if (live && container.current)
          destroy = drawGraph(container.current, graph, (e) => select.current(e));
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      destroy?.();
    };
  }, [graph]);

  const count = new Set(graph.neighbors.map((n) => `${n.type}:${n.value}`)).size;
  return (
    <figure class="graph">
      <div
        ref={container}
        class="graph-canvas"
        role="img"
        aria-label={`Graph of ${graph.entity.value} and ${count} connected entities; they are listed in the table`}
      />
      <GraphLegend graph={graph} />
      <figcaption class="muted">
        {failed
          ? 'The graph drawing could not be loaded; the table lists the same entities.'
          : 'Click an entity to explore its neighbourhood.'}
      </figcaption>
    </figure>
  );
}
