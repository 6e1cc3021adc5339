import { FEED_NAMES, type FeedName, feedEnvPrefix } from '../domain/feeds/names';
import { CONNECTOR_NAMES, type ConnectorName, intelEnvPrefix } from '../domain/intel/names';
import * as z from '../zod';
import { booleanFlag, dailyQuota, optional, shared } from './declared';

/* The variables declared per connector and per feed (shared/config.ts spreads them in). */
const intelKey = optional(() => z.string().check(z.trim(), z.minLength(8), z.maxLength(512)));
/** https, or plain http to this machine only (tests' local servers): keys and indicators never go in clear. */
const intelUrl = optional(
  shared(() =>
    z.url().check(
      z.refine((value: string) => {
        const url = URL.parse(value);
        if (!url) return true; // the url format's own issue says it
        return (
          url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname))
        );
      }, 'must be an https URL (plain http only to 127.0.0.1, localhost or [::1])'),
    ),
  ),
);
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];
const intelEnabled = optional(booleanFlag);
const intelQuota = dailyQuota;
type IntelEnv = { [N in Uppercase<ConnectorName> as `SIS_INTEL_${N}_API_KEY`]: typeof intelKey } & {
  [N in Uppercase<ConnectorName> as `SIS_INTEL_${N}_URL`]: typeof intelUrl;
} & { [N in Uppercase<ConnectorName> as `SIS_INTEL_${N}_ENABLED`]: typeof intelEnabled } & {
  [N in Uppercase<ConnectorName> as `SIS_INTEL_${N}_DAILY_QUOTA`]: typeof intelQuota;
};

/**
 * Threat-intelligence connectors (docs/intel.md): per NAME in CONNECTOR_NAMES, SIS_INTEL_<NAME>_API_KEY
 * (locally; on AWS the keys are in the Secrets Manager secret SIS_INTEL_SECRET_ARN and
 * SIS_INTEL_<NAME>_ENABLED=true says which to use), SIS_INTEL_<NAME>_URL overriding the base URL,
 * SIS_INTEL_<NAME>_ENABLED=true for a keyless source, SIS_INTEL_<NAME>_DAILY_QUOTA overriding the
 * declared daily quota. Nothing is called unless configured.
 */
export const intelEnv = Object.fromEntries(
  CONNECTOR_NAMES.flatMap((name) => {
    const prefix = intelEnvPrefix(name);
    return [
      [`${prefix}_API_KEY`, intelKey],
      [`${prefix}_URL`, intelUrl],
      [`${prefix}_ENABLED`, intelEnabled],
      [`${prefix}_DAILY_QUOTA`, intelQuota],
    ];
  }),
) as IntelEnv;

const feedUrls = optional(
  shared(() =>
    z.string().check(
      z.maxLength(4000),
      z.refine(
        (value: string) =>
          value
            .split(/\s+/)
            .filter(Boolean)
            .every((url) => /^(https?|file):\/\/\S+$/.test(url) && URL.canParse(url)),
        'one or more http(s):// or file:// URLs separated by spaces',
      ),
    ),
  ),
);
const feedEnabled = optional(booleanFlag);
type FeedEnv = { [N in FeedName as `SIS_FEED_${N}_URL`]: typeof feedUrls } & {
  [N in FeedName as `SIS_FEED_${N}_ENABLED`]: typeof feedEnabled;
};

/**
 * Public threat feeds (docs/feeds.md): per NAME in FEED_NAMES, SIS_FEED_<NAME>_URL replacing the
 * publisher's URL(s) (http(s) or file://, several separated by spaces) and SIS_FEED_<NAME>_ENABLED.
 * Unset ENABLED is false: the stack sets it for every feed from the tenant's settings, and the local
 * runtime, which has no internet, fetches only the feeds an operator enables.
 */
export const feedEnv = Object.fromEntries(
  FEED_NAMES.flatMap((name) => [
    [`${feedEnvPrefix(name)}_URL`, feedUrls],
    [`${feedEnvPrefix(name)}_ENABLED`, feedEnabled],
  ]),
) as FeedEnv;
