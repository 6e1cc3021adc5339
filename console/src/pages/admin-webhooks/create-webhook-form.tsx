import { useState } from 'preact/hooks';
import {
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENTS,
} from '../../../../shared/domain/webhooks/webhook-events';
import { api } from '../../api';
import { ErrorNote } from '../../components/common';
import { CheckboxGroup } from '../../components/form/checkbox-group';
import { TextField } from '../../components/form/text-field';
import type { CreatedWebhook, WebhookEvent } from '../../types';
import { useAction } from '../../use-action';

/** The events a new subscription starts with: how a playbook learns an investigation it started ended. */
const DEFAULT_EVENTS: WebhookEvent[] = ['investigation.completed', 'investigation.failed'];

/**
 * Subscribe a URL: the service checks it (https, public addresses only, not the same URL and events
 * twice) and its refusal is shown here in its own words; nothing is stored then.
 */
export function CreateWebhookForm({ onCreated }: { onCreated: (created: CreatedWebhook) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(DEFAULT_EVENTS);
  const [keyId, setKeyId] = useState('');
  const creating = useAction();
  const toggle = (event: string, checked: boolean) =>
    setEvents((chosen) => (checked ? [...chosen, event as WebhookEvent] : chosen.filter((e) => e !== event)));
  const submit = (event: Event) => {
    event.preventDefault();
    if (events.length === 0) {
      creating.setError(new Error('Choose at least one event.'));
      return;
    }
    void creating.run(async () => {
      const created = await api<CreatedWebhook>('POST', '/admin/webhooks', {
        body: { url, description, events, ...(keyId.trim() ? { key_id: keyId.trim() } : {}) },
      });
      setUrl('');
      setDescription('');
      setKeyId('');
      onCreated(created);
    });
  };
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="webhook-form-heading">
      <h2 id="webhook-form-heading">Add a webhook</h2>
      <div class="fields">
        <TextField
          label="URL"
          name="url"
          type="url"
          class="wide"
          required
          maxLength={MAX_WEBHOOK_URL_LENGTH}
          placeholder="https://soar.example.com/hooks/sis"
          value={url}
          onValue={setUrl}
        />
        <TextField
          label="Description"
          name="description"
          required
          maxLength={MAX_WEBHOOK_DESCRIPTION_LENGTH}
          placeholder="XSOAR playbook: enrichment done"
          value={description}
          onValue={setDescription}
        />
        <TextField
          label="Only sessions of API key (key ID, optional)"
          name="key_id"
          placeholder="k_…"
          value={keyId}
          onValue={setKeyId}
        />
      </div>
      <CheckboxGroup
        legend="Events"
        name="events"
        options={WEBHOOK_EVENTS}
        chosen={events}
        onToggle={toggle}
      />
      <ErrorNote error={creating.error} />
      <button type="submit" disabled={creating.busy}>
        {creating.busy ? 'Adding…' : 'Add webhook'}
      </button>
    </form>
  );
}
