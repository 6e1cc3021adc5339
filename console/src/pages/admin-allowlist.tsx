import { useEffect, useState } from 'preact/hooks';
import { ALLOWLIST_TYPES } from '../../../shared/domain/tenant-knowledge/allowlist-types';
import { api } from '../api';
import { AdminOnly } from '../components/admin-only';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/common';
import { SelectField } from '../components/form/select-field';
import { TextField } from '../components/form/text-field';
import { RecordTable } from '../components/record-table';
import { when } from '../format';
import type { AllowlistAnswer, AllowlistEntry, AllowlistType, Me } from '../types';
import { useAction } from '../use-action';

/** /admin/allowlist: what the tenant trusts (docs/tenant-knowledge.md); console admins only. */
export function AllowlistPage({ me }: { me: Me }) {
  return (
    <AdminOnly me={me}>
      <Allowlist />
    </AdminOnly>
  );
}

const HINTS: Record<AllowlistType, string> = {
  ip: '203.0.113.7',
  cidr: '198.51.100.0/24 (at most /8, or /32 for IPv6)',
  domain: 'contoso-payroll.com (and its subdomains)',
  user: 'svc-backup@contoso.example',
  host: 'build-07',
};

function Allowlist() {
  const [entries, setEntries] = useState<AllowlistEntry[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = () =>
    api<AllowlistAnswer>('GET', '/admin/allowlist')
      .then((answer) => setEntries(answer.entries))
      .catch(setError);
  useEffect(() => {
    void load();
  }, []);
  const remove = async (entry: AllowlistEntry) => {
    setError(null);
    try {
      await api('DELETE', `/admin/allowlist/${encodeURIComponent(entry.entry_id)}`);
      await load();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <>
      <PageTitle>Allowlist</PageTitle>
      <p>
        Entities and networks the organisation trusts. A later investigation of a covered entity ends benign
        with a finding quoting the entry; its other findings are still shown. Every change is audited.
      </p>
      <AddEntry onAdded={load} />
      <ErrorNote error={error} />
      {entries === null && !error && <Loading what="the allowlist" />}
      {entries && entries.length === 0 && <p>The allowlist is empty.</p>}
      {entries && entries.length > 0 && (
        <RecordTable
          caption="Allowlist entries, newest first"
          columns={[
            'Type',
            'Value',
            'Reason',
            'Added',
            'Expires',
            <span key="actions" class="visually-hidden">
              Actions
            </span>,
          ]}
        >
          {entries.map((entry) => (
            <tr key={entry.entry_id}>
              <td>{entry.type}</td>
              <td>
                <code>{entry.value}</code>
              </td>
              <td>{entry.reason}</td>
              <td class="small">
                {when(entry.created_at)} by <code>{entry.created_by}</code>
              </td>
              <td>
                {entry.expired ? (
                  <Badge kind="expired">expired</Badge>
                ) : entry.expires_at ? (
                  when(entry.expires_at)
                ) : (
                  'never'
                )}
              </td>
              <td>
                <button type="button" class="danger" onClick={() => remove(entry)}>
                  Remove <span class="visually-hidden">{entry.value}</span>
                </button>
              </td>
            </tr>
          ))}
        </RecordTable>
      )}
    </>
  );
}

function AddEntry({ onAdded }: { onAdded: () => Promise<unknown> }) {
  const [type, setType] = useState<AllowlistType>('domain');
  const [value, setValue] = useState('');
  const [reason, setReason] = useState('');
  const [days, setDays] = useState('');
  const adding = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void adding.run(async () => {
      await api('POST', '/admin/allowlist', {
        body: { type, value, reason, ...(days ? { expires_in_days: Number(days) } : {}) },
      });
      setValue('');
      setReason('');
      await onAdded();
    });
  };
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="allow-heading">
      <h2 id="allow-heading">Add an entry</h2>
      <div class="fields">
        <SelectField label="Type" name="type" value={type} onValue={setType} options={ALLOWLIST_TYPES} />
        <TextField
          label="Value"
          name="value"
          required
          maxLength={256}
          placeholder={HINTS[type]}
          value={value}
          onValue={setValue}
        />
        <TextField label="Reason" name="reason" required maxLength={500} value={reason} onValue={setReason} />
        <TextField
          label="Expires after (days, optional)"
          name="expires_in_days"
          type="number"
          min={1}
          max={3650}
          value={days}
          onValue={setDays}
        />
      </div>
      <ErrorNote error={adding.error} />
      <button type="submit" disabled={adding.busy}>
        {adding.busy ? 'Adding…' : 'Add to the allowlist'}
      </button>
    </form>
  );
}
