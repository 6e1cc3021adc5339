import { useState } from 'preact/hooks';
import { api } from '../../api';
import { AdminOnly } from '../../components/admin-only';
import { Badge, ErrorNote, Loading, PageTitle } from '../../components/common';
import { ConfirmButton } from '../../components/form/confirm-button';
import { RecordTable } from '../../components/record-table';
import { SecretPanel } from '../../components/secret-panel';
import { when } from '../../format';
import { useApi } from '../../hooks';
import type { Me, RotatedWebhookSecret, Webhook, WebhooksAnswer } from '../../types';
import { useAction } from '../../use-action';
import { CreateWebhookForm } from './create-webhook-form';
import { WebhookDeliveries } from './webhook-deliveries';

/** /admin/webhooks: signed notifications to SOAR playbooks (docs/soar.md "Webhooks"); admins only. */
export function WebhooksPage({ me }: { me: Me }) {
  return (
    <AdminOnly me={me}>
      <Webhooks />
    </AdminOnly>
  );
}

type Shown = { title: string; secret: string };

function Webhooks() {
  const listed = useApi(() => api<WebhooksAnswer>('GET', '/admin/webhooks'), [], { keep: true });
  const [secret, setSecret] = useState<Shown | null>(null);
  const [opened, setOpened] = useState<string | null>(null);
  const webhooks = listed.data?.webhooks ?? null;
  const openedWebhook = webhooks?.find((webhook) => webhook.webhook_id === opened) ?? null;

  return (
    <>
      <PageTitle>Webhooks</PageTitle>
      <p>
        When an investigation ends (or an auto-investigated incident is enriched), the service POSTs the event
        to each subscribed https URL, signed per Standard Webhooks with the webhook's secret: a playbook
        (Logic Apps, XSOAR, Splunk SOAR, Tines) verifies the <code>webhook-signature</code> header and need
        not poll (docs/soar.md). Only URLs whose host resolves to public addresses are accepted, at
        registration and at every delivery.
      </p>
      {secret && (
        <SecretPanel
          title={secret.title}
          secret={secret.secret}
          label="Signing secret"
          noun="secret"
          afterwards="the list shows the webhook, never its secret. Give it to the receiver, which verifies each delivery's signature with it; if it is lost, rotate the secret."
          onDone={() => setSecret(null)}
        />
      )}
      <CreateWebhookForm
        onCreated={(created) => {
          setSecret({ title: `Webhook “${created.description}” created`, secret: created.secret });
          listed.reload();
        }}
      />
      <section aria-labelledby="webhooks-heading">
        <h2 id="webhooks-heading">Subscriptions</h2>
        <ErrorNote error={listed.error} />
        {webhooks === null && !listed.error && <Loading what="the webhooks" />}
        {webhooks && webhooks.length === 0 && <p>No webhook yet.</p>}
        {webhooks && webhooks.length > 0 && (
          <RecordTable
            caption="Webhooks"
            columns={[
              'Description',
              'URL',
              'Events',
              'Sessions of',
              'Status',
              'Created',
              'Secret rotated',
              'Actions',
            ]}
          >
            {webhooks.map((webhook) => (
              <WebhookRow
                key={webhook.webhook_id}
                webhook={webhook}
                onDeliveries={() => setOpened(webhook.webhook_id)}
                onRotated={(rotated) =>
                  setSecret({ title: `New secret of “${webhook.description}”`, secret: rotated.secret })
                }
                onChanged={(removed) => {
                  if (removed && opened === webhook.webhook_id) setOpened(null);
                  listed.reload();
                }}
              />
            ))}
          </RecordTable>
        )}
      </section>
      {openedWebhook && <WebhookDeliveries webhook={openedWebhook} onClose={() => setOpened(null)} />}
    </>
  );
}

function WebhookRow({
  webhook,
  onDeliveries,
  onRotated,
  onChanged,
}: {
  webhook: Webhook;
  onDeliveries: () => void;
  onRotated: (rotated: RotatedWebhookSecret) => void;
  onChanged: (removed: boolean) => void;
}) {
  const acting = useAction();
  const path = `/admin/webhooks/${encodeURIComponent(webhook.webhook_id)}`;
  const rotate = () =>
    acting.run(async () => {
      onRotated(await api<RotatedWebhookSecret>('POST', `${path}/rotate-secret`));
      onChanged(false);
    });
  const remove = () =>
    acting.run(async () => {
      await api('DELETE', path);
      onChanged(true);
    });
  return (
    <tr>
      <td>{webhook.description}</td>
      <td>
        <code class="small">{webhook.url}</code>
      </td>
      <td class="small">{webhook.events.join(', ')}</td>
      <td>{webhook.key_id ? <code class="small">{webhook.key_id}</code> : 'every key and person'}</td>
      <td>
        <Badge kind={webhook.status}>{webhook.status}</Badge>
        {webhook.disabled_reason && <div class="small">{webhook.disabled_reason}</div>}
      </td>
      <td class="small">
        {when(webhook.created_at)} by <code>{webhook.created_by}</code>
      </td>
      <td class="small">{webhook.secret_rotated_at ? when(webhook.secret_rotated_at) : 'never'}</td>
      <td>
        <div class="actions">
          <button type="button" onClick={onDeliveries}>
            Deliveries <span class="visually-hidden">of {webhook.description}</span>
          </button>
          <ConfirmButton
            label="Rotate secret"
            target={`of ${webhook.description}`}
            question="The old secret stops signing now. Rotate?"
            confirmLabel="Rotate secret"
            busy={acting.busy}
            onConfirm={() => void rotate()}
          />
          <ConfirmButton
            label="Remove"
            target={webhook.description}
            question="Its pending deliveries are abandoned. Remove?"
            confirmLabel="Remove webhook"
            busy={acting.busy}
            onConfirm={() => void remove()}
          />
        </div>
        <ErrorNote error={acting.error} />
      </td>
    </tr>
  );
}
