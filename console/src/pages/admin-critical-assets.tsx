import { useState } from 'preact/hooks';
import { CRITICALITIES } from '../../../shared/domain/core/vocabulary';
import { MAX_REASON_LENGTH } from '../../../shared/domain/tenant-knowledge/allowlist-types';
import {
  CRITICAL_ASSET_TYPES,
  MAX_OWNER_LENGTH,
} from '../../../shared/domain/tenant-knowledge/critical-asset-types';
import { api } from '../api';
import { AdminOnly } from '../components/admin-only';
import { AdminRecordList } from '../components/admin-record-list';
import { Badge, ErrorNote, PageTitle } from '../components/common';
import { ConfirmButton } from '../components/form/confirm-button';
import { SelectField } from '../components/form/select-field';
import { TextField } from '../components/form/text-field';
import { when } from '../format';
import { useApi } from '../hooks';
import type { CriticalAsset, CriticalAssetsAnswer, CriticalAssetType, Criticality, Me } from '../types';
import { useAction } from '../use-action';

/**
 * /admin/critical-assets: the hosts and users the tenant declares important, with who to coordinate
 * their containment with (docs/tenant-knowledge.md, "Critical assets"); console admins only.
 */
export function CriticalAssetsPage({ me }: { me: Me }) {
  return (
    <AdminOnly me={me}>
      <CriticalAssets />
    </AdminOnly>
  );
}

const HINTS: Record<CriticalAssetType, string> = {
  host: 'dc01.corp.contoso.example',
  user: 'ceo@contoso.example',
};

const CRITICALITY_LABELS: Record<Criticality, string> = {
  critical: 'critical: an outage stops the business',
  high: 'high: an outage hurts',
};

function CriticalAssets() {
  const listed = useApi(() => api<CriticalAssetsAnswer>('GET', '/admin/critical-assets'), [], { keep: true });
  const assets = listed.data?.assets ?? null;
  return (
    <>
      <PageTitle>Critical assets</PageTitle>
      <p>
        Hosts and users whose outage hurts the business (a domain controller, a payment system, an executive's
        account). An investigation of one names its criticality and owner in a finding, and its
        recommendations coordinate containment with the owner instead of isolating or disabling it. The
        declaration never changes the verdict or the risk score. Every change is audited.
      </p>
      <AddAsset onAdded={listed.reload} />
      <AdminRecordList
        records={assets}
        error={listed.error}
        what="the critical assets"
        empty="No critical asset is declared."
        caption="Critical assets, newest first"
        columns={['Type', 'Value', 'Criticality', 'Owner', 'Reason', 'Added']}
        row={(asset) => (
          <AssetRow key={`${asset.entity_type}:${asset.value}`} asset={asset} onRemoved={listed.reload} />
        )}
      />
    </>
  );
}

function AssetRow({ asset, onRemoved }: { asset: CriticalAsset; onRemoved: () => void }) {
  const removing = useAction();
  const remove = () =>
    removing.run(async () => {
      await api('DELETE', `/admin/critical-assets/${asset.entity_type}/${encodeURIComponent(asset.value)}`);
      onRemoved();
    });
  return (
    <tr>
      <td>{asset.entity_type}</td>
      <td>
        <code class="nowrap">{asset.value}</code>
      </td>
      <td>
        <Badge kind={asset.criticality}>{asset.criticality}</Badge>
      </td>
      <td>{asset.owner}</td>
      <td>{asset.reason}</td>
      <td class="small">
        {when(asset.added_at)} by <code>{asset.added_by}</code>
      </td>
      <td>
        <ConfirmButton
          label="Remove"
          target={asset.value}
          question="Later reports may recommend isolating or disabling it. Remove?"
          confirmLabel="Remove asset"
          busy={removing.busy}
          onConfirm={() => void remove()}
        />
        <ErrorNote error={removing.error} />
      </td>
    </tr>
  );
}

function AddAsset({ onAdded }: { onAdded: () => void }) {
  const [type, setType] = useState<CriticalAssetType>('host');
  const [value, setValue] = useState('');
  const [criticality, setCriticality] = useState<Criticality>('critical');
  const [owner, setOwner] = useState('');
  const [reason, setReason] = useState('');
  const adding = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void adding.run(async () => {
      await api('POST', '/admin/critical-assets', {
        body: { entity_type: type, value, criticality, owner, reason },
      });
      setValue('');
      setOwner('');
      setReason('');
      onAdded();
    });
  };
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="asset-heading">
      <h2 id="asset-heading">Declare a critical asset</h2>
      <div class="fields">
        <SelectField
          label="Type"
          name="entity_type"
          value={type}
          onValue={setType}
          options={CRITICAL_ASSET_TYPES}
        />
        <TextField
          label="Value"
          name="value"
          required
          maxLength={256}
          placeholder={HINTS[type]}
          value={value}
          onValue={setValue}
        />
        <SelectField
          label="Criticality"
          name="criticality"
          value={criticality}
          onValue={setCriticality}
          options={CRITICALITIES}
          optionLabel={(option) => CRITICALITY_LABELS[option]}
        />
        <TextField
          label="Owner"
          name="owner"
          required
          maxLength={MAX_OWNER_LENGTH}
          placeholder="Identity team (on-call)"
          value={owner}
          onValue={setOwner}
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
      <ErrorNote error={adding.error} />
      <button type="submit" disabled={adding.busy}>
        {adding.busy ? 'Declaring…' : 'Declare critical'}
      </button>
    </form>
  );
}
