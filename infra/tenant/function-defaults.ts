import type { RemovalPolicy } from 'aws-cdk-lib';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { TABLE_IDS, TABLES } from '../../shared/store/tables';
import type { ServiceFunctionDefaults } from '../constructs/service-function';
import type { ServiceTables } from '../constructs/service-tables';
import { tenantResourceName } from '../naming';
import type { TenantSettings } from '../settings';
import type { TelemetryProfile } from '../telemetry';
import { everyFunctionEnvironment } from './environment';

/**
 * What every service function of the tenant is built with: the settings' variables, the table
 * names, log retention, telemetry and the shared log group. `environment` is the object the
 * functions built later read: the stack adds SIS_PUBLIC_URL to it once the API exists.
 */
export function functionDefaults(
  scope: Construct,
  settings: TenantSettings,
  tables: ServiceTables,
  removalPolicy: RemovalPolicy,
  telemetry: TelemetryProfile,
): ServiceFunctionDefaults {
  const environment = everyFunctionEnvironment(settings);
  for (const tableId of TABLE_IDS) environment[TABLES[tableId].configKey] = tables.tables[tableId].tableName;
  return {
    tenant: settings.tenant,
    environment,
    logRetention: settings.logRetentionDays,
    removalPolicy,
    telemetry,
    sharedLogGroup: new LogGroup(scope, 'FunctionLogs', {
      logGroupName: `/aws/lambda/${tenantResourceName(settings.tenant, 'functions')}`,
      retention: settings.logRetentionDays,
      removalPolicy,
    }),
  };
}
