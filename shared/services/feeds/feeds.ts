import { type Config, perConfiguration } from '../../config';
import { ValidationError } from '../../domain/core/errors';
import { FEED_NAMES, FEEDS, type FeedName, isFeedName } from '../../domain/feeds/declarations';
import { type FeedListing, type FeedState, isStale, staleAfterMs } from '../../domain/feeds/status';
import { readIntelSecret } from '../../platform/intel-secret';
import type { FeedObjectStore } from '../../store/feeds/feed-objects';
import {
  type FeedStateRepository,
  feedStateRepositoryFromConfig,
} from '../../store/feeds/feed-state-repository';
import { FeedList, listingOf } from './feed-listing';
import type { FeedRefresher, RefreshOptions } from './feed-refresh';
import { type FeedSetting, feedSettings } from './feed-settings';
import { feedObjectsFromConfig } from './feed-store';

/**
 * The feeds as operators and the scheduler refresh them: a manual refresh (the API route, `sis feeds
 * refresh`) and the scheduled refresh of one period. Built once per configuration. The refresh's
 * heavy parts (downloads, the parsers with their unzip, compiling a set: feed-refresh.ts) load on the
 * first refresh, not when the function is imported: a cold start of refresh-feeds or feeds-refresh
 * costs what the list's does until a refresh actually runs (docs/feeds.md). The admin list alone is
 * feed-listing.ts.
 */

/** A scheduled run this much early still refreshes a feed whose period is due. */
export const DUE_SLACK_MS = 5 * 60_000;

/** One download of a manual refresh: the API route must answer within API Gateway's 29 s. */
export const MANUAL_REFRESH_TIMEOUT_MS = 20_000;

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
  private readonly feedList: FeedList;

  constructor(private readonly deps: FeedsServiceDeps) {
    this.settings = feedSettings(deps.cfg);
    this.now = deps.now ?? (() => new Date());
    this.feedList = new FeedList({ settings: this.settings, states: deps.states, now: this.now });
  }

  list(): Promise<FeedListing[]> {
    return this.feedList.list();
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
    return this.listingOf(await (await this.refresher()).refresh(chosen, options));
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
    return this.listingOf(await (await this.refresher()).refresh(due, { force: false }));
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

  /** Loaded here, on the first refresh: the import of the function does not evaluate it. */
  private async refresher(): Promise<FeedRefresher> {
    const { FeedRefresher } = await import('./feed-refresh');
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
    return listingOf(states, this.settings, this.now());
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

const services = /* @__PURE__ */ perConfiguration(
  (cfg) =>
    new FeedsService({
      cfg,
      states: feedStateRepositoryFromConfig(cfg),
      objects: feedObjectsFromConfig(cfg),
    }),
);

/** The process's feeds service. */
export function feedsService(): FeedsService {
  return services();
}
