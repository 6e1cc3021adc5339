import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import { ConflictError } from '../../../shared/domain/core/errors';
import { generateKeyId, generateSecret, randomIdentifier } from '../../../shared/domain/keys/api-key';
import {
  type ApiKeyRecord,
  type AuditEntry,
  newKeyRecord,
  planRotation,
  type RotationChange,
} from '../../../shared/domain/keys/key-lifecycle';
import { createDocumentClient } from '../../../shared/store/dynamo-client';
import { KeysRepository } from '../../../shared/store/keys-repository';
import { createIsolatedTables, type IsolatedTables } from '../../support/dynamodb';

let tables: IsolatedTables;
let repository: KeysRepository;
let doc: ReturnType<typeof createDocumentClient>;

beforeAll(async () => {
  tables = await createIsolatedTables();
  doc = createDocumentClient(parseConfig(tables.env));
  repository = new KeysRepository(doc, tables.names.keys);
});

const T0 = new Date('2026-11-01T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

function audit(action: AuditEntry['action'], keyId: string, when = T0): AuditEntry {
  return {
    audit_id: randomIdentifier(),
    at: when.toISOString(),
    action,
    key_id: keyId,
    actor: 'admin-test',
    details: {},
  };
}

async function createKey(name: string, description = '') {
  const keyId = generateKeyId();
  const secret = generateSecret(keyId);
  const record = newKeyRecord({ name, description, scopes: ['graph:read'] }, keyId, secret, 'admin-test', T0);
  await repository.create(record, audit('create', keyId));
  return { record, secret };
}

function plan(
  record: ApiKeyRecord,
  grace: number,
  now = at(1000),
): { change: RotationChange; apiKey: string } {
  const next = generateSecret(record.key_id);
  return { change: planRotation(record, { grace_period_seconds: grace }, next, now), apiKey: next.apiKey };
}

describe('keys repository on DynamoDB Local', () => {
  it('stores a key and reads it back with a strongly consistent read', async () => {
    const { record } = await createKey('round trip');
    expect(await repository.get(record.key_id)).toEqual(record);
    expect(await repository.get(generateKeyId())).toBeUndefined();
  });

  it('refuses to overwrite an existing key ID', async () => {
    const { record } = await createKey('original');
    await expect(
      repository.create({ ...record, name: 'impostor' }, audit('create', record.key_id)),
    ).rejects.toThrow(ConflictError);
    expect((await repository.get(record.key_id))?.name).toBe('original');
  });

  it('lists keys without any secret hash, and never the raw items', async () => {
    const created = await Promise.all([createKey('Listing A', 'for search'), createKey('Listing B')]);
    const { change } = plan(created[0].record, 3600);
    await repository.rotate(created[0].record.key_id, change, audit('rotate', created[0].record.key_id));
    const listed = await repository.list();
    const json = JSON.stringify(listed);
    for (const { record } of created) {
      expect(listed.map((k) => k.key_id)).toContain(record.key_id);
      expect(json).not.toContain(record.secret_hash);
    }
    expect(json).not.toContain(change.secret_hash);
    expect(json).not.toMatch(/secret_hash|"pk"|"gsi1pk"|[0-9a-f]{64}/);
    expect(listed.find((k) => k.key_id === created[0].record.key_id)?.previous_valid_until).toBe(
      change.previous_valid_until,
    );
  });

  it('rotates with a grace period, keeping the key ID', async () => {
    const { record } = await createKey('rotate');
    const { change } = plan(record, 600);
    await repository.rotate(record.key_id, change, audit('rotate', record.key_id));
    const stored = await repository.get(record.key_id);
    expect(stored).toMatchObject({
      key_id: record.key_id,
      secret_hash: change.secret_hash,
      key_prefix: change.key_prefix,
      previous_secret_hash: record.secret_hash,
      previous_valid_until: at(601_000).toISOString(),
      rotated_at: at(1000).toISOString(),
      created_at: record.created_at,
    });
  });

  it('drops the previous secret when rotating with a grace period of 0', async () => {
    const { record } = await createKey('rotate-now');
    await repository.rotate(record.key_id, plan(record, 600).change, audit('rotate', record.key_id));
    const rotated = (await repository.get(record.key_id)) as ApiKeyRecord;
    await repository.rotate(record.key_id, plan(rotated, 0, at(2000)).change, audit('rotate', record.key_id));
    const stored = await repository.get(record.key_id);
    expect(stored?.previous_secret_hash).toBeUndefined();
    expect(stored?.previous_valid_until).toBeUndefined();
  });

  it('lets only one of two concurrent rotations win, and audits only the winner', async () => {
    const { record } = await createKey('race');
    const results = await Promise.allSettled(
      [plan(record, 60), plan(record, 60)].map(({ change }) =>
        repository.rotate(record.key_id, change, audit('rotate', record.key_id, at(5000))),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(ConflictError);
    const audits = (await repository.listAudit(1000)).filter((a) => a.key_id === record.key_id);
    expect(audits.map((a) => a.action).sort()).toEqual(['create', 'rotate']);
  });

  it('disables once; a second disable or an unknown key changes nothing', async () => {
    const { record } = await createKey('disable');
    expect(
      await repository.disable(
        record.key_id,
        at(1).toISOString(),
        'admin-test',
        audit('disable', record.key_id),
      ),
    ).toBe(true);
    expect(
      await repository.disable(
        record.key_id,
        at(2).toISOString(),
        'admin-test',
        audit('disable', record.key_id),
      ),
    ).toBe(false);
    expect(await repository.get(record.key_id)).toMatchObject({
      status: 'disabled',
      disabled_at: at(1).toISOString(),
      disabled_by: 'admin-test',
    });
    const unknown = generateKeyId();
    expect(
      await repository.disable(unknown, at(1).toISOString(), 'admin-test', audit('disable', unknown)),
    ).toBe(false);
    expect(await repository.get(unknown)).toBeUndefined();
  });

  it('refuses to rotate a disabled key', async () => {
    const { record } = await createKey('disabled-rotate');
    await repository.disable(
      record.key_id,
      at(1).toISOString(),
      'admin-test',
      audit('disable', record.key_id),
    );
    await expect(
      repository.rotate(record.key_id, plan(record, 60).change, audit('rotate', record.key_id)),
    ).rejects.toThrow(ConflictError);
  });

  it('writes last_used_at at most once per interval and never creates an item', async () => {
    const { record } = await createKey('last-used');
    expect(await repository.touchLastUsed(record.key_id, at(0), 60_000)).toBe(true);
    expect(await repository.touchLastUsed(record.key_id, at(30_000), 60_000)).toBe(false);
    expect(await repository.touchLastUsed(record.key_id, at(59_999), 60_000)).toBe(false);
    expect((await repository.get(record.key_id))?.last_used_at).toBe(at(0).toISOString());
    expect(await repository.touchLastUsed(record.key_id, at(60_000), 60_000)).toBe(true);
    expect((await repository.get(record.key_id))?.last_used_at).toBe(at(60_000).toISOString());

    const concurrent = await Promise.all(
      Array.from({ length: 10 }, () => repository.touchLastUsed(record.key_id, at(200_000), 60_000)),
    );
    expect(concurrent.filter(Boolean)).toHaveLength(1);

    const ghost = generateKeyId();
    expect(await repository.touchLastUsed(ghost, at(0), 60_000)).toBe(false);
    const { Item } = await doc.send(
      new GetCommand({ TableName: tables.names.keys, Key: { pk: `KEY#${ghost}`, sk: 'KEY' } }),
    );
    expect(Item).toBeUndefined();
  });

  it('audits create, rotate and disable in the same table, newest first, without secrets', async () => {
    const { record, secret } = await createKey('audited');
    const { change, apiKey } = plan(record, 60);
    await repository.rotate(record.key_id, change, audit('rotate', record.key_id, at(1000)));
    await repository.disable(
      record.key_id,
      at(2000).toISOString(),
      'admin-test',
      audit('disable', record.key_id, at(2000)),
    );
    const mine = (await repository.listAudit(1000)).filter((a) => a.key_id === record.key_id);
    expect(mine.map((a) => a.action)).toEqual(['disable', 'rotate', 'create']);
    expect(mine.every((a) => a.actor === 'admin-test')).toBe(true);
    const { Items } = await doc.send(new ScanCommand({ TableName: tables.names.keys }));
    const auditJson = JSON.stringify((Items ?? []).filter((i) => i.pk === 'AUDIT'));
    for (const forbidden of [secret.secret, secret.apiKey, apiKey, record.secret_hash, change.secret_hash]) {
      expect(auditJson).not.toContain(forbidden);
    }
  });

  it('keeps the raw secret out of the table entirely', async () => {
    const { secret } = await createKey('no raw secret');
    const { Items } = await doc.send(new ScanCommand({ TableName: tables.names.keys }));
    const json = JSON.stringify(Items);
    expect(json).not.toContain(secret.secret);
    expect(json).toContain(secret.secretHash);
  });
});

describe('key names for the functions that name a session’s starter', () => {
  it('reads the name alone, the one attribute their IAM grant allows besides the key', async () => {
    const { record } = await createKey('SOAR playbook');
    const requested: unknown[] = [];
    const watched = createDocumentClient(parseConfig(tables.env));
    watched.middlewareStack.add(
      (next) => async (args) => {
        requested.push(args.input as { ProjectionExpression?: unknown; ExpressionAttributeNames?: unknown });
        return next(args);
      },
      { step: 'initialize', name: 'recordRequests' },
    );
    const names = new KeysRepository(watched, tables.names.keys);
    expect(await names.nameOf(record.key_id)).toBe('SOAR playbook');
    expect(await names.nameOf(generateKeyId())).toBeUndefined();
    for (const input of requested) {
      const { ProjectionExpression, ExpressionAttributeNames } = input as {
        ProjectionExpression: string;
        ExpressionAttributeNames: Record<string, string>;
      };
      const attributes = ProjectionExpression.split(',').map((a) => ExpressionAttributeNames[a.trim()] ?? a);
      expect(attributes).toEqual(['name']);
    }
    expect(requested).toHaveLength(2);
  });
});
