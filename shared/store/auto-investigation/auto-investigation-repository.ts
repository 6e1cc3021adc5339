import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Entity, entityKey } from '../../domain/core/entity';
import type { EntityInvestigation } from '../../domain/incidents/auto-investigation';
import { consistentBatchGet } from '../batch-operations';

/**
 * Incidents investigated as they arrive, in the incidents table:
 *
 * - pk `AUTOINV#<type>#<value>`, sk `CLAIM`: the entity is being, or was, investigated by the
 *   system principal until `until_epoch` (24 h), with its `session_id` once started. Taken with a
 *   condition, so two incidents naming one entity start one investigation; deleted by TTL a day later.
 * - pk `INCIDENT#<id>`, sk `AUTOINV`: what the incident knows of its entities' investigations
 *   (beside its META, which an upsert replaces whole) and, once fired, `enriched_at`.
 */
const CLAIM = 'CLAIM';
const LINKS = 'AUTOINV';
const claimKey = (entity: Entity) => ({ pk: `AUTOINV#${entity.type}#${entity.value}`, sk: CLAIM });
const linksKey = (incidentId: string) => ({ pk: `INCIDENT#${incidentId}`, sk: LINKS });

export interface EntityClaim {
  until_epoch: number;
  session_id?: string;
}

export interface IncidentInvestigations {
  investigations: EntityInvestigation[];
  enriched_at?: string;
}

const isConditionFailure = (error: unknown) =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

export class AutoInvestigationRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** The entities' claims by entity key (expired ones included: the caller compares the time). */
  async claims(entities: readonly Entity[]): Promise<Map<string, EntityClaim>> {
    const items = await this.batchGet(entities.map(claimKey));
    const claims = new Map<string, EntityClaim>();
    for (const item of items) {
      const [, type, ...value] = String(item.pk).split('#');
      claims.set(entityKey({ type, value: value.join('#') } as Entity), {
        until_epoch: Number(item.until_epoch),
        ...(typeof item.session_id === 'string' ? { session_id: item.session_id } : {}),
      });
    }
    return claims;
  }

  /** Takes the entity for the next 24 h unless a live claim holds it; false when one does. */
  async claim(entity: Entity, nowEpoch: number, windowSeconds: number): Promise<boolean> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            ...claimKey(entity),
            until_epoch: nowEpoch + windowSeconds,
            expires_at_epoch: nowEpoch + 2 * windowSeconds,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR until_epoch < :now',
          ExpressionAttributeValues: { ':now': nowEpoch },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async setSession(entity: Entity, sessionId: string): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.table,
        Key: claimKey(entity),
        UpdateExpression: 'SET session_id = :session',
        ExpressionAttributeValues: { ':session': sessionId },
      }),
    );
  }

  /** Gives a claim back when its start was refused (the entity is tried again later). */
  async release(entity: Entity): Promise<void> {
    await this.doc
      .send(
        new DeleteCommand({
          TableName: this.table,
          Key: claimKey(entity),
          ConditionExpression: 'attribute_not_exists(session_id)',
        }),
      )
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
  }

  /** The incidents' investigations, by incident ID (an incident with none is left out). */
  async investigationsOf(incidentIds: readonly string[]): Promise<Map<string, IncidentInvestigations>> {
    const items = await this.batchGet(incidentIds.map(linksKey));
    return new Map(
      items.map((item) => [
        String(item.pk).slice('INCIDENT#'.length),
        {
          investigations: (item.investigations as EntityInvestigation[] | undefined) ?? [],
          ...(typeof item.enriched_at === 'string' ? { enriched_at: item.enriched_at } : {}),
        },
      ]),
    );
  }

  async recordInvestigations(incidentId: string, investigations: EntityInvestigation[]): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.table,
        Key: linksKey(incidentId),
        UpdateExpression: 'SET investigations = :investigations',
        ExpressionAttributeValues: { ':investigations': investigations },
      }),
    );
  }

  /** Records that incident.enriched fired; false when it already had (it fires once). */
  async markEnriched(incidentId: string, at: string): Promise<boolean> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.table,
          Key: linksKey(incidentId),
          UpdateExpression: 'SET enriched_at = :at',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(enriched_at)',
          ExpressionAttributeValues: { ':at': at },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  private batchGet(keys: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
    return consistentBatchGet(this.doc, this.table, keys);
  }
}
