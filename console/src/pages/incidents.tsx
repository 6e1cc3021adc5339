import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api } from '../api';
import { pageHref } from '../base';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/common';
import { CheckboxGroup } from '../components/form/checkbox-group';
import { TextField } from '../components/form/text-field';
import { RecordTable } from '../components/record-table';
import { ShowMore } from '../components/show-more';
import { incidentHref, UTC_TIME_PATTERN, utcQueryTime, when } from '../format';
import { usePagedList } from '../hooks';
import type { IncidentsAnswer } from '../types';

const SEVERITIES = ['critical', 'high', 'medium', 'low', 'informational'];
const STATUSES = ['new', 'active', 'resolved', 'closed'];
/** The filters chosen by ticking boxes, each named after its query parameter. */
const CHOICE_FILTERS = [
  { field: 'severity', legend: 'Severity', options: SEVERITIES },
  { field: 'status', legend: 'Status', options: STATUSES },
] as const;

/** The filters live in the page address (?severity=high,critical&status=new&since=…), so they can be shared. */
function readFilters(query: Record<string, string>) {
  const list = (raw?: string) => (raw ? raw.split(',').filter(Boolean) : []);
  return {
    severity: list(query.severity),
    status: list(query.status),
    since: query.since ?? '',
    until: query.until ?? '',
  };
}

export function IncidentsPage() {
  const { query, route, url } = useLocation();
  const filters = readFilters(query);
  const [draft, setDraft] = useState(filters);
  useEffect(() => setDraft(readFilters(query)), [url]);
  const list = usePagedList(
    (cursor) =>
      api<IncidentsAnswer>('GET', '/incidents', {
        query: {
          severity: filters.severity.join(','),
          status: filters.status.join(','),
          since: filters.since && utcQueryTime(filters.since),
          until: filters.until && utcQueryTime(filters.until),
          limit: 25,
          cursor,
        },
      }),
    (page) => page.incidents,
    [url],
  );
  const { items, error } = list;

  const toggle = (field: 'severity' | 'status', value: string, on: boolean) =>
    setDraft((d) => ({ ...d, [field]: on ? [...d[field], value] : d[field].filter((v) => v !== value) }));

  const apply = (event: Event) => {
    event.preventDefault();
    const params = new URLSearchParams();
    if (draft.severity.length) params.set('severity', draft.severity.join(','));
    if (draft.status.length) params.set('status', draft.status.join(','));
    if (draft.since) params.set('since', draft.since);
    if (draft.until) params.set('until', draft.until);
    const search = params.toString();
    route(pageHref(`/incidents${search ? `?${search}` : ''}`));
  };

  return (
    <>
      <PageTitle>Incidents</PageTitle>
      <form class="panel filters" onSubmit={apply} aria-label="Filter incidents">
        {CHOICE_FILTERS.map(({ field, legend, options }) => (
          <CheckboxGroup
            key={field}
            legend={legend}
            name={field}
            options={options}
            chosen={draft[field]}
            onToggle={(value, on) => toggle(field, value, on)}
          />
        ))}
        <fieldset>
          <legend>Raised</legend>
          <p id="raised-hint" class="muted small">
            A date, or a date and time, in UTC: <code>2026-11-23</code> or <code>2026-11-23 14:00</code>.
          </p>
          <UtcTimeField
            label="From (UTC)"
            name="since"
            value={draft.since}
            onValue={(since) => setDraft((d) => ({ ...d, since }))}
          />
          <UtcTimeField
            label="Before (UTC)"
            name="until"
            value={draft.until}
            onValue={(until) => setDraft((d) => ({ ...d, until }))}
          />
        </fieldset>
        <div class="actions">
          <button type="submit">Apply filters</button>
          <a href={pageHref('/incidents')}>Clear</a>
        </div>
      </form>
      <ErrorNote error={error} />
      {items === null && !error && <Loading what="incidents" />}
      {items && items.length === 0 && <p>No incidents match these filters.</p>}
      {items && items.length > 0 && (
        <RecordTable
          caption="Incidents, newest first"
          columns={['Incident', 'Severity', 'Status', 'Raised', 'Source', 'Entities']}
        >
          {items.map((incident) => (
            <tr key={incident.incident_id}>
              <td>
                <a href={incidentHref(incident.incident_id)}>{incident.title}</a>
              </td>
              <td>
                <Badge kind={incident.severity}>{incident.severity}</Badge>
              </td>
              <td>{incident.status}</td>
              <td>{when(incident.created_at)}</td>
              <td>{incident.source}</td>
              <td>{incident.entities.length}</td>
            </tr>
          ))}
        </RecordTable>
      )}
      <ShowMore list={list} />
    </>
  );
}

/** One end of the "Raised" range: a UTC time typed as text, explained by the hint above the two. */
function UtcTimeField(props: {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
}) {
  return (
    <TextField
      type="text"
      {...props}
      inputMode="numeric"
      placeholder="YYYY-MM-DD HH:MM"
      pattern={UTC_TIME_PATTERN}
      aria-describedby="raised-hint"
    />
  );
}
