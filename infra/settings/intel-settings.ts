import { z } from 'zod';
import { FEED_NAMES } from '../../shared/domain/feeds/names';
import { FEED_SOURCES } from '../../shared/domain/feeds/sources';
import { CONNECTOR_NAMES } from '../../shared/domain/intel/names';
import { commaSeparated, httpsUrl, jsonContext } from './context-values';
import { declare } from './declare';

/** The feeds enabled unless the tenant says otherwise: no key needed, terms allowing business use. */
export const DEFAULT_FEEDS = FEED_NAMES.filter((name) => FEED_SOURCES[name].enabledByDefault);

/** Threat-intelligence connectors and public feeds (docs/intel.md, docs/feeds.md). */
export const INTEL_SETTINGS = {
  intelSecretArn: declare({
    schema: z
      .string()
      .regex(
        /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+$/,
        'must be a full Secrets Manager secret ARN',
      )
      .optional(),
    docs: {
      default: 'none',
      meaning:
        'The Secrets Manager secret holding the connectors\' keys as JSON `{"ABUSEIPDB": "<key>", ...}` (created by the operator; only the lookup step may read it) ([intel.md](intel.md#configuration)).',
    },
    variable: { name: 'SIS_INTEL_SECRET_ARN', on: 'intel planning and lookup functions' },
  }),
  intelConnectors: declare({
    schema: z
      .string()
      .transform((value) => commaSeparated(value, (name) => name.toLowerCase()))
      .pipe(z.array(z.enum(CONNECTOR_NAMES)))
      .default([]),
    docs: {
      default: 'none',
      meaning:
        'Threat-intelligence connectors to use, comma-separated (`abuseipdb,crowdsec,internetdb`); unset, no connector is ever called ([intel.md](intel.md#configuration)).',
    },
    variable: { name: 'SIS_INTEL_<NAME>_ENABLED', on: 'intel planning and lookup functions' },
  }),
  intelMispUrl: declare({
    schema: httpsUrl().optional(),
    docs: {
      default: 'none',
      meaning:
        'The tenant\'s own MISP server (https only); required when `intelConnectors` names `misp` (its key is `"MISP"` in the `intelSecretArn` secret).',
    },
    variable: { name: 'SIS_INTEL_MISP_URL', on: 'intel planning and lookup functions' },
  }),
  feeds: declare({
    schema: z
      .string()
      .transform((value) =>
        value.trim().toLowerCase() === 'none' ? [] : commaSeparated(value, (name) => name.toUpperCase()),
      )
      .pipe(z.array(z.enum(FEED_NAMES)))
      .default([...DEFAULT_FEEDS]),
    docs: {
      default: 'the keyless feeds whose terms allow business use',
      meaning:
        'Public threat feeds to enable, comma-separated names (`SPAMHAUS_DROP,FEODO,TOR_EXITS`), or `none` ([feeds.md](feeds.md)). URLHAUS and THREATFOX need the abuse.ch Auth-Key in `intelSecretArn` (keys `URLHAUS`, `THREATFOX`).',
    },
    variable: { name: 'SIS_FEED_<NAME>_ENABLED', on: 'feed functions' },
  }),
  feedUrls: declare({
    schema: z.preprocess(jsonContext, z.partialRecord(z.enum(FEED_NAMES), httpsUrl())).optional(),
    docs: {
      default: "the publishers' URLs",
      meaning:
        'Per-feed source URL overrides, JSON `{"TOR_EXITS": "https://mirror.example/torbulkexitlist"}`.',
    },
    variable: { name: 'SIS_FEED_<NAME>_URL', on: 'feed functions' },
  }),
  internalSuffixes: declare({
    schema: z.string().max(4000).optional(),
    docs: {
      default: 'none',
      meaning:
        'Comma-separated domain suffixes named internal: never sent to a third-party source ([intel.md](intel.md#configuration)).',
    },
    variable: { name: 'SIS_INTERNAL_SUFFIXES', on: 'intel lookup step and connectors route' },
  }),
};
