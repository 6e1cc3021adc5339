import { api } from '../api';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/common';
import { RecordTable } from '../components/record-table';
import { duration, when } from '../format';
import { useApi } from '../hooks';
import type { Connector, ConnectorsAnswer, Me } from '../types';

/**
 * /admin/connectors: the threat-intelligence connectors (docs/intel.md), each with whether it is on,
 * what it is asked (entity types, the highest TLP), today's quota, its circuit breaker, how long its
 * answers are reused, and how to turn it on. Analysts may read it too, as IntelOwl shows every user its
 * analyzers: it holds settings and today's state, never a key.
 */
export function ConnectorsPage({ me }: { me: Me }) {
  const listed = useApi(() => api<ConnectorsAnswer>('GET', '/connectors'), []);
  const connectors = listed.data?.connectors ?? null;
  const enabled = connectors?.filter((connector) => connector.enabled).length ?? 0;
  return (
    <>
      <PageTitle>Threat-intelligence connectors</PageTitle>
      <p>
        Outside sources an investigation asks about its entity, within each source's TLP gate and daily quota.
        A source that fails repeatedly is skipped for a while (its circuit opens); an answer is reused for its
        cache time. A report's coverage says which were consulted, skipped and why.
      </p>
      <ErrorNote error={listed.error} />
      {connectors === null && !listed.error && <Loading what="the connectors" />}
      {connectors && (
        <>
          <p role="status">
            {enabled === 0
              ? 'No connector is enabled: investigations consult no outside intelligence source.'
              : `${enabled} of ${connectors.length} connectors enabled.`}
            {enabled < connectors.length && me.role !== 'admin' && ' An operator enables the others.'}
          </p>
          <RecordTable
            caption="Threat-intelligence connectors"
            columns={[
              'Connector',
              'Status',
              'Looks up',
              'TLP gate',
              'Quota today',
              'Circuit',
              'Answers reused for',
              'How to enable',
            ]}
          >
            {connectors.map((connector) => (
              <ConnectorRow key={connector.name} connector={connector} />
            ))}
          </RecordTable>
        </>
      )}
    </>
  );
}

const CIRCUIT_LABEL: Record<Connector['circuit']['state'], string> = {
  closed: 'Closed (healthy)',
  open: 'Open: skipped',
  half_open: 'Half-open: next lookup is a trial',
};

function ConnectorRow({ connector }: { connector: Connector }) {
  const { quota, circuit } = connector;
  return (
    <tr>
      <td>
        {connector.title}
        <br />
        <code class="small nowrap">{connector.tool}</code>
      </td>
      <td>
        <Badge kind={connector.enabled ? 'active' : 'disabled'}>
          {connector.enabled ? 'enabled' : 'disabled'}
        </Badge>
      </td>
      <td>{connector.entity_types.join(', ')}</td>
      <td>up to TLP:{connector.max_tlp.toUpperCase()}</td>
      <td>
        {quota.used_today.toLocaleString('en')} / {quota.daily_limit.toLocaleString('en')}
        {quota.min_interval_ms > 0 && (
          <div class="small">one per {duration(quota.min_interval_ms / 1000)}</div>
        )}
      </td>
      <td>
        {connector.enabled ? CIRCUIT_LABEL[circuit.state] : '—'}
        {circuit.state === 'open' && circuit.open_until && (
          <div class="small">until {when(circuit.open_until)}</div>
        )}
        {connector.last_error && (
          <div class="small">
            Last error {when(connector.last_error_at)}: {connector.last_error}
          </div>
        )}
      </td>
      <td>{duration(connector.cache_ttl_seconds)}</td>
      <td class="small">{connector.how_to_enable ?? 'On.'}</td>
    </tr>
  );
}
