import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { incidentHref } from '../format';
import type { Incident } from '../types';

/** An incident ID as the service writes it (`inc_…`), alone or inside a sentence. */
const INCIDENT_ID = /\binc_[A-Za-z0-9]+\b/g;

export const isIncidentId = (value: string) => /^inc_[A-Za-z0-9]+$/.test(value);

/**
 * Titles already asked for, by incident ID: one read of the console's incident twin per incident per
 * page load, however many recommendations and findings name it. null: not readable (missing,
 * refused, failed), so the ID stands for itself.
 */
const titles = new Map<string, Promise<string | null>>();

function titleOf(incidentId: string): Promise<string | null> {
  let title = titles.get(incidentId);
  if (!title) {
    title = api<Incident>('GET', `/incidents/${encodeURIComponent(incidentId)}`).then(
      (incident) => incident.title,
      () => null,
    );
    titles.set(incidentId, title);
  }
  return title;
}

/** A link to an incident named by its title once known, else by its ID (kept in the tooltip). */
export function IncidentReference({ id }: { id: string }) {
  const [title, setTitle] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setTitle(null);
    void titleOf(id).then((known) => live && setTitle(known));
    return () => {
      live = false;
    };
  }, [id]);
  return (
    <a href={incidentHref(id)} title={id} data-incident-id={id}>
      {title ?? id}
    </a>
  );
}

/** A sentence with every incident ID in it shown as a link to that incident, by title. */
export function TextWithIncidents({ text }: { text: string }) {
  const parts: Array<string | { id: string }> = [];
  let last = 0;
  for (const match of text.matchAll(INCIDENT_ID)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push({ id: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return (
    <>
      {parts.map((part, index) =>
        typeof part === 'string' ? part : <IncidentReference key={`${index}:${part.id}`} id={part.id} />,
      )}
    </>
  );
}
