import { perConfiguration } from '../../config';
import type { IntelPort } from '../../domain/core/vocabulary';
import { configuredConnectors } from '../intel/intel-lookups';
import { type SessionContext, sessionContext } from '../sessions/session-context';

/**
 * What planning a run works with (mark-active): the session and which intelligence connectors are
 * configured. Not their runtime: that reads keys from Secrets Manager, which planning never does.
 */
export interface PlanningContext extends SessionContext {
  intel?: Pick<IntelPort, 'enabled'>;
}

export const planningContext = /* @__PURE__ */ perConfiguration(
  (cfg): PlanningContext => ({ ...sessionContext(), intel: configuredConnectors(cfg) }),
);
