/** People's names for the entity facts the tools record (`as_org` → "AS organisation"). */
const FACT_LABELS: Record<string, string> = {
  asn: 'ASN',
  as_org: 'AS organisation',
  country: 'Country',
  network_class: 'Network class',
  network_provider: 'Network provider',
  is_idn: 'Internationalised name',
  registrable_domain: 'Registrable domain',
  public_suffix: 'Public suffix',
  mail_provider: 'Mail provider',
  disposable: 'Disposable address',
};

export function factLabel(name: string): string {
  const known = FACT_LABELS[name];
  if (known) return known;
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function factValue(name: string, value: unknown): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (name === 'asn' && typeof value === 'number') return `AS${value}`;
  return String(value);
}
