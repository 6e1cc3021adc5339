import { api } from '../../api';
import { Badge, ErrorNote, Loading } from '../../components/common';
import { RecordTable } from '../../components/record-table';
import { when } from '../../format';
import { useApi } from '../../hooks';
import type { Webhook, WebhookDelivery } from '../../types';

/** Delivery statuses as an operator reads them (the contract's words, docs/soar.md). */
const STATUS_LABEL: Record<WebhookDelivery['status'], string> = {
  pending: 'pending',
  delivering: 'delivering',
  retrying: 'retrying',
  delivered: 'delivered',
  failed: 'failed (dead-letter)',
  abandoned: 'abandoned',
};
const STATUS_BADGE: Record<WebhookDelivery['status'], string> = {
  pending: 'initialized',
  delivering: 'initialized',
  retrying: 'soon',
  delivered: 'succeeded',
  failed: 'failed',
  abandoned: 'canceled',
};

/** One webhook's delivery log: the latest 100 of the last 30 days, newest first. */
export function WebhookDeliveries({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const listed = useApi(
    () =>
      api<{ deliveries: WebhookDelivery[] }>(
        'GET',
        `/admin/webhooks/${encodeURIComponent(webhook.webhook_id)}/deliveries`,
      ),
    [webhook.webhook_id],
    { keep: true },
  );
  const deliveries = listed.data?.deliveries ?? null;
  return (
    <section class="panel" aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Deliveries of “{webhook.description}”</h2>
      <p class="small">
        The latest 100 of the last 30 days, newest first. Every attempt of one delivery carries the same{' '}
        <code>webhook-id</code> (the receiver's idempotency key); failed attempts are retried with growing
        delays over hours.
      </p>
      <div class="actions">
        <button type="button" onClick={listed.reload}>
          Reload deliveries
        </button>
        <button type="button" class="secondary" onClick={onClose}>
          Close
        </button>
      </div>
      <ErrorNote error={listed.error} />
      {deliveries === null && !listed.error && <Loading what="the deliveries" />}
      {deliveries && deliveries.length === 0 && (
        <p>No delivery yet: none of its events has happened since it was added.</p>
      )}
      {deliveries && deliveries.length > 0 && (
        <RecordTable
          caption={`Deliveries of ${webhook.description}, newest first`}
          columns={[
            'Event',
            'Status',
            'Attempts',
            'Last status code',
            'Last attempt',
            'Last error',
            'webhook-id',
          ]}
        >
          {deliveries.map((delivery) => (
            <tr key={delivery.delivery_id}>
              <td>
                <code>{delivery.event}</code>
              </td>
              <td>
                <Badge kind={STATUS_BADGE[delivery.status]}>{STATUS_LABEL[delivery.status]}</Badge>
              </td>
              <td>{delivery.attempts}</td>
              <td>{delivery.last_status_code ?? '—'}</td>
              <td>{when(delivery.last_attempt_at ?? delivery.created_at)}</td>
              <td class="small">{delivery.last_error ?? ''}</td>
              <td>
                <code class="small">{delivery.delivery_id}</code>
              </td>
            </tr>
          ))}
        </RecordTable>
      )}
    </section>
  );
}
