import { CfnOutput } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { TABLE_IDS, TABLES } from '../../shared/store/tables';
import type { ConsoleSignIn } from '../constructs/console-sign-in';
import type { Observability } from '../constructs/observability';
import type { ServiceApi } from '../constructs/service-api';
import type { ServiceTables } from '../constructs/service-tables';
import { pascalCase } from '../naming';

/** The alarm topic, the dashboard and the stage, for operators and the sis CLI. */
export function addObservabilityOutputs(
  scope: Construct,
  observability: Observability,
  api: ServiceApi,
): void {
  new CfnOutput(scope, 'AlarmTopicArn', {
    value: observability.topic.topicArn,
    description: 'Alarm notifications; subscribe an address or a chat integration',
  });
  if (observability.dashboard) {
    new CfnOutput(scope, 'DashboardName', { value: observability.dashboard.dashboardName });
  }
  new CfnOutput(scope, 'StageName', {
    value: api.stageName,
    description: 'SIS_STAGE_NAME for the sis CLI (with RestApiId and UsagePlanId)',
  });
}

export interface ServiceOutputSources {
  api: ServiceApi;
  publicUrl: string;
  consoleSignIn: ConsoleSignIn;
  tables: ServiceTables;
}

/** The API's and the console's URLs, the user pool, the usage plan and the table names. */
export function addServiceOutputs(
  scope: Construct,
  { api, publicUrl, consoleSignIn, tables }: ServiceOutputSources,
) {
  const url = api.baseUrl;
  new CfnOutput(scope, 'ApiUrl', { value: url, description: 'Base URL of the API (stage included)' });
  new CfnOutput(scope, 'OpenApiUrl', { value: `${url}/openapi.json` });
  new CfnOutput(scope, 'PluginManifestUrl', { value: `${url}/.well-known/ai-plugin.json` });
  new CfnOutput(scope, 'RestApiId', { value: api.api.restApiId });
  new CfnOutput(scope, 'ConsoleUrl', {
    value: `${publicUrl.replace(/\/+$/, '')}/sessions`,
    description: 'The web console (sign in with the user pool below; docs/console.md)',
  });
  new CfnOutput(scope, 'ConsoleUserPoolId', {
    value: consoleSignIn.userPool.userPoolId,
    description: 'Console users and groups (admins, analysts): aws cognito-idp admin-create-user ...',
  });
  new CfnOutput(scope, 'ConsoleSignInUrl', { value: consoleSignIn.domain.baseUrl() });
  new CfnOutput(scope, 'UsagePlanId', { value: api.usagePlan.usagePlanId });
  for (const tableId of TABLE_IDS) {
    new CfnOutput(scope, `${pascalCase(tableId)}TableName`, {
      value: tables.tables[tableId].tableName,
      description: `${TABLES[tableId].configKey} for the sis CLI`,
    });
  }
}
