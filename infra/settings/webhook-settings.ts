import { z } from 'zod';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from '../../shared/domain/webhooks/retry-schedule';
import { contextBoolean } from './context-values';
import { declare } from './declare';

/** Webhook delivery (docs/soar.md "Webhooks"; see declaration.ts). */
export const WEBHOOK_SETTINGS = {
  webhookTimeoutSeconds: declare({
    schema: z.coerce.number().int().min(1).max(15).default(15),
    docs: {
      default: '`15`',
      meaning:
        "One webhook delivery attempt's time limit, connect to last byte (1–15 s); a receiver that takes longer is retried.",
    },
    variable: { name: 'SIS_WEBHOOK_TIMEOUT_SECONDS', on: 'every function' },
  }),
  webhookRetrySchedule: declare({
    schema: z
      .string()
      .superRefine((value, ctx) => {
        try {
          parseRetrySchedule(value);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
        }
      })
      .default(DEFAULT_RETRY_SCHEDULE.join(',')),
    docs: {
      default: `\`${DEFAULT_RETRY_SCHEDULE.join(',')}\``,
      meaning:
        'Seconds to wait before each further webhook delivery attempt (±20 % jitter; a longer `Retry-After` wins, up to a day). The default spreads 8 attempts over about 11 hours.',
    },
    variable: { name: 'SIS_WEBHOOK_RETRY_SCHEDULE', on: 'every function' },
  }),
  webhookAllowLoopback: declare({
    schema: contextBoolean.default(false),
    docs: {
      default: '`false`',
      meaning:
        'Lets webhooks reach `http://127.0.0.1`: for local tests only. `cdk synth` refuses `true` (infra/function-config.ts).',
    },
    variable: { name: 'SIS_WEBHOOK_ALLOW_LOOPBACK', on: 'every function' },
  }),
};
