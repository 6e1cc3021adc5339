import type { Figure } from '../stats';

/** How the results page prints numbers, ratios, sizes and tables. */
export const ms = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? 'n/a' : value >= 100 ? value.toFixed(0) : value.toFixed(1);
export const x = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a');
export const signed = (value: number) => (value >= 0 ? `+${ms(value)}` : `−${ms(-value)}`);
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
export const usd = (value: number) =>
  value >= 100 ? `$${value.toFixed(0)}` : value >= 1 ? `$${value.toFixed(2)}` : `$${value.toFixed(3)}`;
export const fig = (f: Figure, format: (v: number) => string = ms) =>
  f.rounds > 1 ? `${format(f.median)} (${format(f.min)}–${format(f.max)})` : format(f.median);
export const count = (value: number) =>
  value >= 1e9
    ? `${(value / 1e9).toFixed(1)} billion`
    : value >= 1e6
      ? `${(value / 1e6).toFixed(1)} million`
      : value.toLocaleString('en-US', { maximumFractionDigits: 0 });

export function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}
