import { type Config, perConfiguration } from '../../config';
import { ValidationError } from '../../domain/core/errors';
import { FEED_NAMES, FEEDS, type FeedName, isFeedName } from '../../domain/feeds/declarations';
import {
  type FeedListing,
  type FeedState,
  feedListing,
  isStale,
  staleAfterMs,
} from '../../domain/feeds/status';
import { readIntelSecret } from '../../platform/intel-secret';
import type { FeedObjectStore } from '../../store/feeds/feed-objects';
import {
  type FeedStateRepository,
  feedStateRepositoryFromConfig,
} from '../../store/feeds/feed-state-repository';
import { feedObjectsFromConfig } from '../../store/feeds/s3-feed-objects';
import { FeedRefresher, type RefreshOptions } from './feed-refresh';
import { FeedSets } from './feed-sets';
import { type FeedSetting, feedSettings } from './feed-settings';

/**
 * The feeds as operators and the scheduler address them: the admin list, a manual refresh (the API
 * route, `sis feeds refresh`), the scheduled refresh of one period, and the loader of the compiled
 * sets the `feeds` tool reads. Built once per configuration.
 */

/** A scheduled run this much early still refreshes a feed whose period is due. */
export const DUE_SLACK_MS = 5 * 60_000;

export interface FeedsServiceDeps {
  cfg: Config;
  states: FeedStateRepository;
  objects: FeedObjectStore | undefined;
  now?: () => Date;
  fetchImpl?: typeof fetch;
}

export class FeedsService {
  readonly settings: Record<FeedName, FeedSetting>;
  private readonly now: () => Date;

  constructor(private readonly deps: FeedsServiceDeps) {
    this.settings = feedSettings(deps.cfg);
    this.now = deps.now ?? (() => new Date());
  }

  async list(): Promise<FeedListing[]> {
    return this.listingOf(await this.deps.states.all());
  }

  /** `names` unset: every enabled feed. An unknown name is a 400, a disabled one is listed, not fetched. */
  async refresh(names: readonly string[] | undefined, options: RefreshOptions): Promise<FeedListing[]> {
    const unknown = (names ?? []).filter((name) => !isFeedName(name));
    if (unknown.length) {
      throw new ValidationError(`Unknown feed name(s): ${unknown.join(', ')}`, [
        { path: 'names', message: `must be among ${FEED_NAMES.join(', ')}` },
      ]);
    }
    const chosen = (names as FeedName[] | undefined) ?? [...FEED_NAMES];
    return this.listingOf(await this.refresher().refresh(chosen, options));
  }

  /**
   * The scheduled refresh (EventBridge Scheduler, the local timer), run at the shortest refresh
   * period: the enabled feeds whose own period is due since their last attempt (a few minutes' slack
   * so a run a little early does not skip a cycle), each within its publisher's minimum interval.
   */
  async refreshDue(): Promise<FeedListing[]> {
    const now = this.now().getTime();
    const states = await this.deps.states.all();
    const due = FEED_NAMES.filter((name) => {
      const last = states[name].last_attempt_at;
      return !last || now - Date.parse(last) >= FEEDS[name].refreshMinutes * 60_000 - DUE_SLACK_MS;
    });
    return this.listingOf(await this.refresher().refresh(due, { force: false }));
  }

  /** Enabled feeds stale for at least a day beyond their staleness limit (the stack's alarm). */
  staleForADay(listing: readonly FeedListing[]): FeedName[] {
    const now = this.now().getTime();
    return listing
      .filter((f) => f.enabled)
      .filter((f) => {
        const state = {
          name: f.name,
          ...(f.last_refreshed_at ? { last_refreshed_at: f.last_refreshed_at } : {}),
        };
        if (!isStale(state, this.now())) return false;
        if (!f.last_refreshed_at) return true;
        return now - Date.parse(f.last_refreshed_at) - staleAfterMs(f.name) >= 86_400_000;
      })
      .map((f) => f.name);
  }

  /** The tool step's loader of the enabled feeds' compiled sets. */
  sets(): FeedSets {
    return new FeedSets({
      states: this.deps.states,
      objects: this.deps.objects,
      enabled: FEED_NAMES.filter((name) => this.settings[name].enabled),
    });
  }

  private refresher(): FeedRefresher {
    return new FeedRefresher({
      states: this.deps.states,
      objects: this.deps.objects,
      settings: this.settings,
      cfg: this.deps.cfg,
      keyFor: (connector) => intelKey(this.deps.cfg, connector),
      now: this.now,
      ...(this.deps.fetchImpl ? { fetchImpl: this.deps.fetchImpl } : {}),
    });
  }

  private listingOf(states: Record<FeedName, FeedState>): FeedListing[] {
    const now = this.now();
    return FEED_NAMES.map((name) =>
      feedListing(states[name], {
        enabled: this.settings[name].enabled,
        urls: this.settings[name].urls,
        now,
      }),
    );
  }
}

/** The abuse.ch Auth-Key of a connector: SIS_INTEL_<NAME>_API_KEY, else the tenant's intel secret. */
async function intelKey(cfg: Config, connector: 'urlhaus' | 'threatfox'): Promise<string | undefined> {
  const env = cfg as unknown as Record<string, unknown>;
  const direct = env[`SIS_INTEL_${connector.toUpperCase()}_API_KEY`];
  if (typeof direct === 'string' && direct) return direct;
  if (!cfg.SIS_INTEL_SECRET_ARN) return undefined;
  return (await readIntelSecret(cfg))[connector];
}

const services = /* @__PURE__ */ perConfiguration((cfg) => ({
  cfg,
  built: undefined as Promise<FeedsService> | undefined,
}));

/** The process's feeds service. */
export function feedsService(): Promise<FeedsService> {
  const entry = services();
  entry.built ??= feedObjectsFromConfig(entry.cfg).then(
    (objects) =>
      new FeedsService({ cfg: entry.cfg, states: feedStateRepositoryFromConfig(entry.cfg), objects }),
  );
  return entry.built;
}
