import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

/**
 * The local issuer's storage (oidc-provider's `adapter`): sign-in interactions, sessions, grants and
 * authorization codes of this one process, each dropped when it expires. Keeping them in memory is
 * the design here, not a shortcut: the issuer's signing key is generated at every start, so a
 * restart ends every local sign-in whatever was stored, and one process serves every request. It is
 * one store per issuer (oidc-provider's built-in development adapter is one per process), so two
 * local services in one process (tests) never see each other's sign-ins.
 */
interface Entry {
  payload: AdapterPayload;
  expiresAt: number;
}

export function consoleIssuerStore(now: () => number = Date.now): AdapterFactory {
  const entries = new Map<string, Entry>();
  const byUid = new Map<string, string>();
  const byUserCode = new Map<string, string>();
  const byGrant = new Map<string, Set<string>>();

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now()) {
      remove(key);
      return undefined;
    }
    return entry;
  };
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    if (entry.payload.uid) byUid.delete(entry.payload.uid);
    if (entry.payload.userCode) byUserCode.delete(entry.payload.userCode);
    if (entry.payload.grantId) byGrant.get(entry.payload.grantId)?.delete(key);
  };
  // Expired entries nobody asks for again go at the next write.
  const sweep = () => {
    const at = now();
    for (const [key, entry] of entries) if (entry.expiresAt <= at) remove(key);
  };

  return (model: string): Adapter => {
    const keyOf = (id: string) => `${model}:${id}`;
    const lookup = async (index: Map<string, string>, value: string) => {
      const key = index.get(value);
      return key ? live(key)?.payload : undefined;
    };
    return {
      async upsert(id, payload, expiresIn) {
        sweep();
        const key = keyOf(id);
        remove(key);
        entries.set(key, {
          payload,
          expiresAt: typeof expiresIn === 'number' ? now() + expiresIn * 1000 : Number.POSITIVE_INFINITY,
        });
        if (payload.uid) byUid.set(payload.uid, key);
        if (payload.userCode) byUserCode.set(payload.userCode, key);
        if (payload.grantId) {
          const members = byGrant.get(payload.grantId) ?? new Set<string>();
          members.add(key);
          byGrant.set(payload.grantId, members);
        }
      },
      async find(id) {
        return live(keyOf(id))?.payload;
      },
      findByUid: (uid) => lookup(byUid, uid),
      findByUserCode: (userCode) => lookup(byUserCode, userCode),
      async consume(id) {
        const entry = live(keyOf(id));
        if (entry) entry.payload.consumed = Math.floor(now() / 1000);
      },
      async destroy(id) {
        remove(keyOf(id));
      },
      async revokeByGrantId(grantId) {
        for (const key of [...(byGrant.get(grantId) ?? [])]) remove(key);
        byGrant.delete(grantId);
      },
    };
  };
}
