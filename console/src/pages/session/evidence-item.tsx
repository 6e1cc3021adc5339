import { incidentHref, sessionHref } from '../../format';

/** Evidence items that name an incident or a session link to their pages. */
export function EvidenceItem({ value }: { value: string }) {
  if (/^inc_[a-z0-9]+$/i.test(value)) return <a href={incidentHref(value)}>{value}</a>;
  if (/^s_[A-Z0-9]+$/i.test(value)) return <a href={sessionHref(value)}>{value}</a>;
  return <code>{value}</code>;
}
