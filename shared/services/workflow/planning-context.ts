import { perConfiguration } from '../../config';
import type { IntelPort } from '../../domain/core/vocabulary';
import { enabledFeeds } from '../feeds/enabled-feeds';
import { configuredConnectors } from '../intel/connector-settings';
import { type SessionContextWith, sessionWritingContext } from '../sessions/session-context';

/**
 * What planning a run works with (mark-active): the session and which intelligence connectors are
 * configured. Not their runtime: that reads keys from Secrets Manager, which planning never does.
 */
export interface PlanningContext extends SessionContextWith<'sessions'> {
  intel?: Pick<IntelPort, 'enabled'>;
  /** The deployment enables at least one public feed: the `feeds` tool is planned. */
  feedsEnabled?: boolean;
}

export const planningContext = /* @__PURE__ */ perConfiguration(
  (cfg): PlanningContext => ({
    ...sessionWritingContext(),
    intel: configuredConnectors(cfg),
    feedsEnabled: enabledFeeds(cfg).length > 0,
  }),
);
