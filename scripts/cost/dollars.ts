/** How the cost tooling rounds and prints dollar amounts. */

export function round(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}

export function usd(value: number): string {
  if (value === 0) return '$0';
  if (value >= 0.1) return `$${value.toFixed(2)}`;
  return `$${value.toPrecision(2)}`;
}
