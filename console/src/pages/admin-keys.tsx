import { useEffect, useRef, useState } from 'preact/hooks';
import { SCOPES } from '../../../shared/domain/keys/scopes';
import { api } from '../api';
import { AdminOnly } from '../components/admin-only';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/common';
import { ConnectAssistantPanel } from '../components/connect-assistant';
import { CheckboxGroup } from '../components/form/checkbox-group';
import { SearchForm } from '../components/form/search-form';
import { SelectField } from '../components/form/select-field';
import { TextField } from '../components/form/text-field';
import { RecordTable } from '../components/record-table';
import { SecretPanel } from '../components/secret-panel';
import { expiresSoon, when } from '../format';
import { CreateApiKeyRequestDefaults } from '../generated/api';
import { useApi } from '../hooks';
import type { ApiKey, CreatedKey, KeysAnswer, Me, RotatedKey } from '../types';
import { useAction } from '../use-action';

const EXPIRY_CHOICES = [30, 90, 180, 365];
/** The service's own default (KEY_EXPIRY_DAYS, through the generated request defaults). */
const DEFAULT_EXPIRY_DAYS: number = CreateApiKeyRequestDefaults.expires_in_days;
/** Grace periods offered on rotation; none is preselected, so the admin chooses one on purpose. */
const GRACE_CHOICES: Array<{ seconds: number; label: string }> = [
  { seconds: 0, label: 'None: the old secret stops working now' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 24 * 3600, label: '24 hours' },
  { seconds: 7 * 24 * 3600, label: '7 days' },
];

const KEY_COLUMNS = [
  'Name',
  'Key prefix',
  'Scopes',
  'Created',
  'Expires',
  'Last used',
  'Investigation caps',
  'Status',
  'Grace ends',
  'Actions',
];

type Secret = { title: string; apiKey: string; keyPrefix: string };

export function KeysPage({ me }: { me: Me }) {
  return (
    <AdminOnly me={me}>
      <Keys />
    </AdminOnly>
  );
}

function Keys() {
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const [secret, setSecret] = useState<Secret | null>(null);
  // The list stays on screen while it is asked again after a change.
  const listed = useApi(
    () => api<KeysAnswer>('GET', '/admin/keys', { query: { search: applied } }),
    [applied],
    { keep: true },
  );
  const keys = listed.data?.keys ?? null;
  const { error, reload: refresh } = listed;

  return (
    <>
      <PageTitle>API keys</PageTitle>
      <p>
        Keys are for machines: one per integration, with the fewest scopes it needs. People sign in to this
        console instead.
      </p>
      {secret && <KeySecret secret={secret} onDone={() => setSecret(null)} />}
      <CreateKeyForm
        onCreated={(created) => {
          setSecret(created);
          refresh();
        }}
      />
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys</h2>
        <SearchForm
          label="Search keys"
          value={search}
          onValue={setSearch}
          onSearch={() => setApplied(search.trim())}
        />
        <ErrorNote error={error} />
        {keys === null && !error && <Loading what="keys" />}
        {keys && keys.length === 0 && <p>No keys{applied ? ' match this search' : ''}.</p>}
        {keys && keys.length > 0 && (
          <RecordTable class="keys" caption="API keys, oldest first" columns={KEY_COLUMNS}>
            {keys.map((key) => (
              <KeyRow key={key.key_id} apiKey={key} onSecret={setSecret} onChanged={refresh} />
            ))}
          </RecordTable>
        )}
      </section>
      <ConnectAssistantPanel />
    </>
  );
}

function KeySecret({ secret, onDone }: { secret: Secret; onDone: () => void }) {
  return (
    <SecretPanel
      title={secret.title}
      secret={secret.apiKey}
      label="API key"
      noun="key"
      afterwards={
        <>
          after you leave this message, only its prefix <code>{secret.keyPrefix}</code> is shown.
        </>
      }
      onDone={onDone}
    />
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (secret: Secret) => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [days, setDays] = useState(DEFAULT_EXPIRY_DAYS);
  const creating = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    if (scopes.length === 0) {
      creating.setError(new Error('Choose at least one scope.'));
      return;
    }
    void creating.run(async () => {
      const created = await api<CreatedKey>('POST', '/admin/keys', {
        body: { name: name.trim(), description: description.trim(), scopes, expires_in_days: days },
      });
      onCreated({
        title: `Key “${created.name}” created`,
        apiKey: created.api_key,
        keyPrefix: created.key_prefix,
      });
      setName('');
      setDescription('');
      setScopes([]);
      setDays(DEFAULT_EXPIRY_DAYS);
    });
  };

  return (
    <form class="panel" onSubmit={submit} aria-labelledby="create-heading">
      <h2 id="create-heading">Create a key</h2>
      <div class="fields">
        <TextField label="Name" name="name" required maxLength={100} value={name} onValue={setName} />
        <TextField
          label="Description"
          name="description"
          maxLength={500}
          value={description}
          onValue={setDescription}
        />
        <SelectField
          label="Expires after"
          name="expires"
          value={String(days)}
          onValue={(chosen) => setDays(Number(chosen))}
          options={EXPIRY_CHOICES.map(String)}
          optionLabel={(d) => <>{d} days</>}
        />
      </div>
      <CheckboxGroup
        legend="Scopes"
        name="scopes"
        options={SCOPES}
        chosen={scopes}
        onToggle={(scope, checked) =>
          setScopes((s) => (checked ? [...s, scope] : s.filter((x) => x !== scope)))
        }
        optionClass="check"
        optionLabel={(scope) => <code>{scope}</code>}
      />
      <ErrorNote error={creating.error} />
      <button type="submit" disabled={creating.busy}>
        {creating.busy ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}

function KeyRow({
  apiKey: key,
  onSecret,
  onChanged,
}: {
  apiKey: ApiKey;
  onSecret: (secret: Secret) => void;
  onChanged: () => void;
}) {
  const [mode, setMode] = useState<'idle' | 'rotate' | 'disable'>('idle');
  const soon = key.status === 'active' && expiresSoon(key.expires_at);
  const graceRunning = key.grace_period_ends_at && new Date(key.grace_period_ends_at).getTime() > Date.now();
  return (
    <>
      <tr>
        <th scope="row">
          {key.name}
          {key.role === 'admin' && (
            <>
              {' '}
              <Badge kind="admin">admin</Badge>
            </>
          )}
          {key.description && <div class="muted small">{key.description}</div>}
        </th>
        <td>
          <code class="nowrap">{key.key_prefix}</code>
        </td>
        <td>
          {key.scopes.length === 0 ? (
            '—'
          ) : (
            <ul class="plain">
              {key.scopes.map((scope) => (
                <li key={scope}>
                  <code>{scope}</code>
                </li>
              ))}
            </ul>
          )}
        </td>
        <td>{when(key.created_at)}</td>
        <td>
          {when(key.expires_at)}
          {soon && (
            <>
              {' '}
              <Badge kind="soon">expires soon</Badge>
            </>
          )}
        </td>
        <td>{key.last_used_at ? when(key.last_used_at) : 'never'}</td>
        <td class="small" data-testid="key-investigation-limits">
          {key.investigation_limits.per_day ?? 'no'} per day,{' '}
          {key.investigation_limits.running_at_once ?? 'any'} at once
        </td>
        <td>
          <Badge kind={key.status}>{key.status}</Badge>
        </td>
        <td>{graceRunning ? when(key.grace_period_ends_at) : '—'}</td>
        <td class="actions">
          {key.status === 'active' && (
            <button
              type="button"
              class="secondary"
              aria-expanded={mode === 'rotate'}
              onClick={() => setMode(mode === 'rotate' ? 'idle' : 'rotate')}
            >
              Rotate<span class="visually-hidden"> {key.name}</span>
            </button>
          )}
          {key.status !== 'disabled' && (
            <button type="button" class="danger" onClick={() => setMode('disable')}>
              Disable<span class="visually-hidden"> {key.name}</span>
            </button>
          )}
          {mode === 'disable' && (
            <DisableDialog
              apiKey={key}
              onClose={(disabled) => {
                setMode('idle');
                if (disabled) onChanged();
              }}
            />
          )}
        </td>
      </tr>
      {mode === 'rotate' && (
        <tr>
          <td colSpan={10}>
            <RotateForm
              apiKey={key}
              onCancel={() => setMode('idle')}
              onRotated={(secret) => {
                setMode('idle');
                onSecret(secret);
                onChanged();
              }}
            />
          </td>
        </tr>
      )}
    </>
  );
}

function RotateForm({
  apiKey: key,
  onCancel,
  onRotated,
}: {
  apiKey: ApiKey;
  onCancel: () => void;
  onRotated: (secret: Secret) => void;
}) {
  const [grace, setGrace] = useState<number | null>(null);
  const rotating = useAction();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const submit = (event: Event) => {
    event.preventDefault();
    if (grace === null) {
      rotating.setError(new Error('Choose how long the old secret keeps working.'));
      return;
    }
    // Leaving: the row closes this form once the new secret is shown.
    void rotating.run(
      async () => {
        const rotated = await api<RotatedKey>(
          'POST',
          `/admin/keys/${encodeURIComponent(key.key_id)}/rotate`,
          {
            body: { grace_period_seconds: grace },
          },
        );
        onRotated({
          title: `Key “${key.name}” rotated`,
          apiKey: rotated.api_key,
          keyPrefix: rotated.key_prefix,
        });
      },
      { leaving: true },
    );
  };

  return (
    <form class="rotate" onSubmit={submit} aria-label={`Rotate ${key.name}`}>
      <fieldset>
        <legend>How long should the old secret of “{key.name}” keep working?</legend>
        {GRACE_CHOICES.map((choice, index) => (
          <label key={choice.seconds} class="check">
            <input
              ref={index === 0 ? first : undefined}
              type="radio"
              name={`grace-${key.key_id}`}
              value={String(choice.seconds)}
              checked={grace === choice.seconds}
              onChange={() => setGrace(choice.seconds)}
            />{' '}
            {choice.label}
          </label>
        ))}
      </fieldset>
      <ErrorNote error={rotating.error} />
      <div class="actions">
        <button type="submit" disabled={rotating.busy}>
          {rotating.busy ? 'Rotating…' : 'Rotate key'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function DisableDialog({ apiKey: key, onClose }: { apiKey: ApiKey; onClose: (disabled: boolean) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const disabling = useAction();
  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, []);

  // Leaving: the dialog closes once the key is disabled.
  const confirm = () =>
    disabling.run(
      async () => {
        await api('POST', `/admin/keys/${encodeURIComponent(key.key_id)}/disable`);
        onClose(true);
      },
      { leaving: true },
    );

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`disable-${key.key_id}`}
      onCancel={(e) => {
        e.preventDefault();
        onClose(false);
      }}
    >
      <h2 id={`disable-${key.key_id}`}>Disable “{key.name}”?</h2>
      <p>
        Every request with this key (<code>{key.key_prefix}</code>), including a secret still in its grace
        period, is refused from now on. A disabled key cannot be enabled again.
      </p>
      <ErrorNote error={disabling.error} />
      <div class="actions">
        {/* The safe choice comes first: a modal dialog focuses its first control. */}
        <button type="button" class="secondary" onClick={() => onClose(false)}>
          Keep the key
        </button>
        <button type="button" class="danger" onClick={confirm} disabled={disabling.busy}>
          {disabling.busy ? 'Disabling…' : 'Disable key'}
        </button>
      </div>
    </dialog>
  );
}
