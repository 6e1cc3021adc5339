import { IncidentReference, isIncidentId } from '../../components/incident-reference';
import { sessionHref } from '../../format';

/** Evidence items that name an incident (by its title) or a session link to their pages. */
export function EvidenceItem({ value }: { value: string }) {
  if (isIncidentId(value)) return <IncidentReference id={value} />;
  if (/^s_[A-Z0-9]+$/i.test(value)) return <a href={sessionHref(value)}>{value}</a>;
  return <code>{value}</code>;
}
