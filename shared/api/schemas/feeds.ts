import { FEED_NAMES } from '../../domain/feeds/declarations';
import { FEED_STATUSES } from '../../domain/feeds/status';
import * as z from '../../zod';
import { withMeta } from '../../zod';

/** The public feeds admin view (GET /api/v1/admin/feeds, docs/feeds.md). Never a key. */
export const FeedSummary = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      name: withMeta(z.enum(FEED_NAMES), { description: 'Feed name', example: 'FEODO' }),
      enabled: withMeta(z.boolean(), {
        description: 'Enabled in this deployment; a disabled feed is never fetched',
        example: true,
      }),
      url: withMeta(z.string(), {
        description: 'Source URL(s), space-separated, any key masked',
        example: 'https://feodotracker.abuse.ch/downloads/ipblocklist.json',
      }),
      last_refreshed_at: withMeta(z.nullable(z.string()), {
        description: 'When the last good copy was confirmed current (UTC), null if never',
        example: '2026-11-27T10:00:00.000Z',
      }),
      indicator_count: withMeta(z.number().check(z.int(), z.gte(0)), {
        description: 'Distinct indicators in the last good copy',
        example: 412,
      }),
      status: withMeta(z.enum(FEED_STATUSES), {
        description:
          'ok; error (the last refresh failed, the last good copy is kept); stale (older than 3 refresh periods, or never refreshed); disabled',
        example: 'ok',
      }),
      error: withMeta(z.optional(z.string()), {
        description: 'Why the feed is in error or stale',
        example: 'https://feodotracker.abuse.ch/downloads/ipblocklist.json answered HTTP 404',
      }),
      how_to_enable: withMeta(z.optional(z.string()), {
        description: 'A disabled feed only: how an operator turns it on (its setting locally and on AWS)',
        example:
          'Set SIS_FEED_FEODO_ENABLED=true locally (SIS_PUBLIC_SOURCES=on turns on every keyless feed the stack enables by default), or name FEODO in -c feeds on AWS.',
      }),
    }),
    { id: 'FeedSummary' },
  ))();

export const ListFeedsResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({ feeds: withMeta(z.array(FeedSummary), { description: 'Every feed the service knows' }) }),
    { id: 'ListFeedsResponse' },
  ))();

export const RefreshFeedsRequest = /* @__PURE__ */ (() =>
  withMeta(
    z.optional(
      z.object({
        names: withMeta(
          z.optional(z.array(z.enum(FEED_NAMES)).check(z.minLength(1), z.maxLength(FEED_NAMES.length))),
          {
            description: 'The feeds to refresh; default every enabled feed',
            example: ['FEODO', 'TOR_EXITS'],
          },
        ),
      }),
    ),
    { id: 'RefreshFeedsRequest' },
  ))();
