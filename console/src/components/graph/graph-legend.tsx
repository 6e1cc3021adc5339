import { VERDICT_THRESHOLDS } from '../../../../shared/domain/investigation/thresholds';
import type { Entity, GraphAnswer } from '../../types';

/**
 * How the graph drawing encodes an entity: its colour is its risk (the verdict bands of the scoring),
 * its shape its type. The drawing is only a picture; this legend says the same in words.
 */
export type RiskBand = 'high' | 'elevated' | 'low' | 'unknown';

export function riskBand(risk: number | undefined): RiskBand {
  if (risk === undefined) return 'unknown';
  if (risk >= VERDICT_THRESHOLDS.malicious) return 'high';
  if (risk >= VERDICT_THRESHOLDS.suspicious) return 'elevated';
  return 'low';
}

export const RISK_COLOURS: Record<RiskBand, string> = {
  high: '#b3261e',
  elevated: '#b86200',
  low: '#1d7a46',
  unknown: '#7b8590',
};

const RISK_TEXT: Record<RiskBand, string> = {
  high: `high risk (${VERDICT_THRESHOLDS.malicious}+, malicious)`,
  elevated: `elevated (${VERDICT_THRESHOLDS.suspicious}–${VERDICT_THRESHOLDS.malicious - 1}, suspicious)`,
  low: `low (under ${VERDICT_THRESHOLDS.suspicious})`,
  unknown: 'not scored yet',
};

export const TYPE_SHAPES: Record<Entity['type'], string> = {
  ip: 'ellipse',
  domain: 'round-rectangle',
  user: 'diamond',
  host: 'hexagon',
};

const TYPE_MARKS: Record<Entity['type'], string> = { ip: '●', domain: '▬', user: '◆', host: '⬢' };

/** The whole scale, worst first, so the legend reads the same on every graph. */
const BANDS: RiskBand[] = ['high', 'elevated', 'low', 'unknown'];

export function GraphLegend({ graph }: { graph: GraphAnswer }) {
  const types = [...new Set([graph.entity.type, ...graph.neighbors.map((n) => n.type)])];
  return (
    <div class="graph-legend">
      <span class="muted" title="The risk score of the latest completed investigation of each entity">
        Colour, latest risk score:
      </span>
      <ul class="plain inline-list">
        {BANDS.map((band) => (
          <li key={band}>
            <span class={`swatch swatch-${band}`} aria-hidden="true" /> {RISK_TEXT[band]}
          </li>
        ))}
      </ul>
      <span class="muted">Shape:</span>
      <ul class="plain inline-list">
        {types.map((type) => (
          <li key={type}>
            <span aria-hidden="true">{TYPE_MARKS[type as Entity['type']] ?? '●'}</span> {type}
          </li>
        ))}
      </ul>
    </div>
  );
}
