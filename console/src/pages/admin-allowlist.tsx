import { useState } from 'preact/hooks';
import { ALLOWLIST_TYPES, MAX_REASON_LENGTH } from '../../../shared/domain/tenant-knowledge/allowlist-types';
import { api } from '../api';
import { AdminOnly } from '../components/admin-only';
import { AdminRecordList } from '../components/admin-record-list';
import { Badge, ErrorNote, PageTitle } from '../components/common';
import { SelectField } from '../components/form/select-field';
import { TextField } from '../components/form/text-field';
import { when } from '../format';
import { useApi } from '../hooks';
import type {
  AllowlistAnswer,
  AllowlistEntry,
  AllowlistType,
  DoNotShareAnswer,
  DoNotShareMark,
  EntityType,
  Me,
} from '../types';
import { useAction } from '../use-action';

/**
 * /admin/allowlist: what the tenant trusts, and what must never leave it ("do not share"),
 * docs/tenant-knowledge.md; console admins only.
 */
export function AllowlistPage({ me }: { me: Me }) {
  return (
    <AdminOnly me={me}>
      <Allowlist />
      <DoNotShare />
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
  const listed = useApi(() => api<AllowlistAnswer>('GET', '/admin/allowlist'), [], { keep: true });
  const removing = useAction();
  const remove = (entry: AllowlistEntry) =>
    removing.run(async () => {
      await api('DELETE', `/admin/allowlist/${encodeURIComponent(entry.entry_id)}`);
      listed.reload();
    });
  return (
    <>
      <PageTitle>Allowlist</PageTitle>
      <p>
        Entities and networks the organisation trusts. A later investigation of a covered entity ends benign
        with a finding quoting the entry; its other findings are still shown. Every change is audited.
      </p>
      <AddEntry onAdded={listed.reload} />
      <AdminRecordList
        records={listed.data?.entries ?? null}
        error={removing.error ?? listed.error}
        what="the allowlist"
        empty="The allowlist is empty."
        caption="Allowlist entries, newest first"
        columns={['Type', 'Value', 'Reason', 'Added', 'Expires']}
        row={(entry) => (
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
              <button
                type="button"
                class="danger"
                disabled={removing.busy}
                onClick={() => void remove(entry)}
              >
                Remove <span class="visually-hidden">{entry.value}</span>
              </button>
            </td>
          </tr>
        )}
      />
    </>
  );
}

function AddEntry({ onAdded }: { onAdded: () => void }) {
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
      onAdded();
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

const DO_NOT_SHARE_HINTS: Record<EntityType, string> = {
  ip: '10.20.30.40',
  domain: 'payroll-portal.contoso.com',
  user: 'ceo@contoso.example',
  host: 'hr-fileserver-01',
};
/** Every entity type (the record above has one hint per type of the generated EntityType). */
const DO_NOT_SHARE_TYPES = Object.keys(DO_NOT_SHARE_HINTS) as EntityType[];

/**
 * The tenant-wide "do not share" marks: a marked entity is never sent to a third-party source and is
 * withheld from API-key graph answers; console users still see it. Marking and lowering are audited.
 */
function DoNotShare() {
  const listed = useApi(() => api<DoNotShareAnswer>('GET', '/admin/do-not-share'), [], { keep: true });
  const lowering = useAction();
  const marks = listed.data?.marks ?? null;
  const lower = (mark: DoNotShareMark) =>
    lowering.run(async () => {
      await api('DELETE', `/admin/do-not-share/${mark.entity_type}/${encodeURIComponent(mark.value)}`);
      listed.reload();
    });
  return (
    <section aria-labelledby="dns-heading">
      <h2 id="dns-heading">Do not share</h2>
      <p>
        Entities that must never leave the tenant (an internal codename, a host under legal hold):
        intelligence connectors are never asked about them, and API keys' graph answers withhold them (saying
        so, not claiming they are unknown). Console users still see them. A mark is an admin's decision with a
        reason; marking and lowering are audited.
      </p>
      <MarkDoNotShare onMarked={listed.reload} />
      <AdminRecordList
        records={marks}
        error={lowering.error ?? listed.error}
        what="the do-not-share marks"
        empty="No entity is marked do not share."
        caption="Do-not-share marks, newest first"
        columns={['Type', 'Value', 'Reason', 'Marked']}
        row={(mark) => (
          <tr key={`${mark.entity_type}:${mark.value}`}>
            <td>{mark.entity_type}</td>
            <td>
              <code>{mark.value}</code>
            </td>
            <td>{mark.reason}</td>
            <td class="small">
              {when(mark.marked_at)} by <code>{mark.marked_by}</code>
            </td>
            <td>
              <button
                type="button"
                class="secondary"
                disabled={lowering.busy}
                onClick={() => void lower(mark)}
              >
                Lower the mark <span class="visually-hidden">on {mark.value}</span>
              </button>
            </td>
          </tr>
        )}
      />
    </section>
  );
}

function MarkDoNotShare({ onMarked }: { onMarked: () => void }) {
  const [type, setType] = useState<EntityType>('domain');
  const [value, setValue] = useState('');
  const [reason, setReason] = useState('');
  const marking = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void marking.run(async () => {
      await api('POST', '/admin/do-not-share', { body: { entity_type: type, value, reason } });
      setValue('');
      setReason('');
      onMarked();
    });
  };
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="dns-form-heading">
      <h3 id="dns-form-heading">Mark an entity do not share</h3>
      <div class="fields">
        <SelectField
          label="Type"
          name="entity_type"
          value={type}
          onValue={setType}
          options={DO_NOT_SHARE_TYPES}
        />
        <TextField
          label="Value"
          name="value"
          required
          maxLength={256}
          placeholder={DO_NOT_SHARE_HINTS[type]}
          value={value}
          onValue={setValue}
        />
        <TextField
          label="Reason"
          name="reason"
          required
          maxLength={MAX_REASON_LENGTH}
          value={reason}
          onValue={setReason}
        />
      </div>
      <ErrorNote error={marking.error} />
      <button type="submit" disabled={marking.busy}>
        {marking.busy ? 'Marking…' : 'Mark do not share'}
      </button>
    </form>
  );
}
