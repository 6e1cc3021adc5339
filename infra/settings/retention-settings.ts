import { z } from 'zod';
import { DEFAULT_RETENTION_DAYS, MAX_RETENTION_DAYS } from '../../shared/domain/retention/retention';
import { declare } from './declare';

const days = (fallback: number) => z.coerce.number().int().min(0).max(MAX_RETENTION_DAYS).default(fallback);
const range = `0–${MAX_RETENTION_DAYS}; 0 = kept forever`;

/**
 * How long the tables keep each kind of data (DynamoDB TTL; docs/deploy.md "Retention"; see
 * declaration.ts). That audit outlives the other kinds is checked in infra/settings.ts.
 */
export const RETENTION_SETTINGS = {
  sessionRetentionDays: declare({
    schema: days(DEFAULT_RETENTION_DAYS.sessions),
    docs: {
      default: `\`${DEFAULT_RETENTION_DAYS.sessions}\``,
      meaning: `Days an investigation is kept after it was started (${range}): the session, its history, tool results, report and verdict, and the batches it belongs to. [deploy.md](#retention)`,
    },
    variable: { name: 'SIS_SESSION_RETENTION_DAYS', on: 'every function' },
  }),
  incidentRetentionDays: declare({
    schema: days(DEFAULT_RETENTION_DAYS.incidents),
    docs: {
      default: `\`${DEFAULT_RETENTION_DAYS.incidents}\``,
      meaning: `Days an incident is kept after it was last ingested (pushed or pulled again) (${range}).`,
    },
    variable: { name: 'SIS_INCIDENT_RETENTION_DAYS', on: 'every function' },
  }),
  graphRetentionDays: declare({
    schema: days(DEFAULT_RETENTION_DAYS.graph),
    docs: {
      default: `\`${DEFAULT_RETENTION_DAYS.graph}\``,
      meaning: `Days a graph node, edge or evidence marker is kept after an investigation or incident last saw it (${range}); every sighting starts the count again.`,
    },
    variable: { name: 'SIS_GRAPH_RETENTION_DAYS', on: 'every function' },
  }),
  auditRetentionDays: declare({
    schema: days(DEFAULT_RETENTION_DAYS.audit),
    docs: {
      default: `\`${DEFAULT_RETENTION_DAYS.audit}\` (7 years)`,
      meaning: `Days an admin audit record is kept (${range}). Must be at least every other retention (0 there means forever, so audit must then be 0 too): \`cdk synth\` refuses a shorter one.`,
    },
    variable: { name: 'SIS_AUDIT_RETENTION_DAYS', on: 'every function' },
  }),
};
