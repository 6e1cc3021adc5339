import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { FeedRefresh } from '../constructs/feed-refresh';
import type { GrantTargets } from '../constructs/function-permissions';
import type { IncidentSync } from '../constructs/incident-sync';
import type { InvestigationWorkflow } from '../constructs/investigation-workflow';
import type { ServiceApi } from '../constructs/service-api';
import type { ServiceTables } from '../constructs/service-tables';
import type { WebhookDelivery } from '../constructs/webhook-delivery';
import type { TenantSettings } from '../settings';

export interface GrantSources {
  settings: TenantSettings;
  tables: ServiceTables;
  tableKey: IKey | undefined;
  api: ServiceApi;
  workflow: InvestigationWorkflow;
  incidentSync: IncidentSync;
  feeds: FeedRefresh;
  webhookDelivery: WebhookDelivery;
  /** Wired in by tests in place of the workflow's and incident sync's own. */
  stateMachine?: IStateMachine | undefined;
  incidentQueue?: IQueue | undefined;
}

/** What the functions' grants (infra/function-grants.ts) point at in this tenant's stack. */
export function grantTargets(sources: GrantSources): GrantTargets {
  const { settings, api, workflow } = sources;
  return {
    tables: sources.tables.tables,
    ...(sources.tableKey ? { tableKey: sources.tableKey } : {}),
    stateMachine: sources.stateMachine ?? workflow.stateMachine,
    ...(sources.stateMachine ? {} : { expressStateMachine: workflow.expressStateMachine }),
    incidentQueue: sources.incidentQueue ?? sources.incidentSync.queue,
    feeds: sources.feeds,
    webhookDispatch: sources.webhookDelivery,
    apiAdmin: {
      tenant: settings.tenant,
      restApiId: api.api.restApiId,
      stageName: api.stageName,
      usagePlanId: api.usagePlan.usagePlanId,
      defaultLimits: {
        ratePerSecond: settings.rateLimitPerSecond,
        burst: settings.burstLimit,
        dailyQuota: settings.dailyQuota,
      },
    },
  };
}
