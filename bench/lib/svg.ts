/**
 * Hand-rolled horizontal bar charts (no dependency): one row per bar, optional stacked segments,
 * optional whiskers (min–max of the rounds) and a vertical marker line (a target or the floor).
 */
export interface Bar {
  label: string;
  value: number;
  /** Stacked parts summing to value; drawn instead of one bar. */
  segments?: Array<{ name: string; value: number }>;
  range?: [number, number];
  /** Drawn in the "over target" colour. */
  flagged?: boolean;
}

export interface ChartSpec {
  title: string;
  subtitle?: string;
  unit: string;
  bars: Bar[];
  marker?: { value: number; label: string };
  /** Number format for value labels. */
  format?: (value: number) => string;
}

const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#9c755f',
  '#bab0ac',
];

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function barChart(spec: ChartSpec): string {
  const format =
    spec.format ?? ((v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)));
  const labelWidth = Math.min(320, 12 + 7 * Math.max(...spec.bars.map((b) => b.label.length), 10));
  const plotWidth = 520;
  const rowHeight = 22;
  const top = spec.subtitle ? 58 : 42;
  const segmentNames = [...new Set(spec.bars.flatMap((b) => (b.segments ?? []).map((s) => s.name)))];
  const legendHeight = segmentNames.length ? 24 : 0;
  const height = top + spec.bars.length * rowHeight + 36 + legendHeight;
  const width = labelWidth + plotWidth + 90;
  const max =
    Math.max(...spec.bars.map((b) => Math.max(b.value, b.range?.[1] ?? 0)), spec.marker?.value ?? 0) * 1.05 ||
    1;
  const x = (v: number) => labelWidth + (v / max) * plotWidth;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="12" y="22" font-size="15" font-weight="bold">${escapeXml(spec.title)}</text>`,
  ];
  if (spec.subtitle) out.push(`<text x="12" y="40" fill="#555">${escapeXml(spec.subtitle)}</text>`);
  spec.bars.forEach((bar, i) => {
    const y = top + i * rowHeight;
    out.push(`<text x="${labelWidth - 8}" y="${y + 14}" text-anchor="end">${escapeXml(bar.label)}</text>`);
    if (bar.segments?.length) {
      let start = 0;
      for (const segment of bar.segments) {
        const colour = PALETTE[segmentNames.indexOf(segment.name) % PALETTE.length];
        const w = Math.max(0, x(start + segment.value) - x(start));
        out.push(
          `<rect x="${x(start).toFixed(1)}" y="${y + 3}" width="${w.toFixed(1)}" height="${rowHeight - 7}" fill="${colour}"><title>${escapeXml(`${segment.name}: ${format(segment.value)} ${spec.unit}`)}</title></rect>`,
        );
        start += segment.value;
      }
    } else {
      const colour = bar.flagged ? '#e15759' : '#4e79a7';
      out.push(
        `<rect x="${labelWidth}" y="${y + 3}" width="${Math.max(0, x(bar.value) - labelWidth).toFixed(1)}" height="${rowHeight - 7}" fill="${colour}"/>`,
      );
    }
    if (bar.range) {
      const [lo, hi] = bar.range;
      const cy = y + rowHeight / 2;
      out.push(
        `<line x1="${x(lo).toFixed(1)}" y1="${cy}" x2="${x(hi).toFixed(1)}" y2="${cy}" stroke="#222" stroke-width="1"/>`,
      );
      out.push(
        `<line x1="${x(lo).toFixed(1)}" y1="${cy - 4}" x2="${x(lo).toFixed(1)}" y2="${cy + 4}" stroke="#222"/>`,
      );
      out.push(
        `<line x1="${x(hi).toFixed(1)}" y1="${cy - 4}" x2="${x(hi).toFixed(1)}" y2="${cy + 4}" stroke="#222"/>`,
      );
    }
    const end = Math.max(x(bar.value), bar.range ? x(bar.range[1]) : 0);
    out.push(
      `<text x="${(end + 6).toFixed(1)}" y="${y + 14}" fill="#333">${escapeXml(format(bar.value))}</text>`,
    );
  });
  const axisY = top + spec.bars.length * rowHeight + 4;
  out.push(`<line x1="${labelWidth}" y1="${top}" x2="${labelWidth}" y2="${axisY}" stroke="#888"/>`);
  out.push(
    `<text x="${labelWidth + plotWidth}" y="${axisY + 16}" text-anchor="end" fill="#555">${escapeXml(spec.unit)}</text>`,
  );
  if (spec.marker) {
    const mx = x(spec.marker.value).toFixed(1);
    out.push(
      `<line x1="${mx}" y1="${top - 4}" x2="${mx}" y2="${axisY}" stroke="#e15759" stroke-dasharray="4 3"/>`,
    );
    out.push(
      `<text x="${mx}" y="${axisY + 16}" text-anchor="middle" fill="#e15759">${escapeXml(spec.marker.label)}</text>`,
    );
  }
  segmentNames.forEach((name, i) => {
    const lx = 12 + i * 120;
    const ly = height - 14;
    out.push(`<rect x="${lx}" y="${ly - 10}" width="10" height="10" fill="${PALETTE[i % PALETTE.length]}"/>`);
    out.push(`<text x="${lx + 14}" y="${ly}">${escapeXml(name)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
