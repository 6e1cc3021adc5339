import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Construct } from 'constructs';
import { tenantResourceName } from '../../naming';

/** The period of every alarm and dashboard metric. */
export const FIVE_MINUTES = Duration.minutes(5);

export interface TenantAlarmOptions {
  metric: IMetric;
  threshold: number;
  description: string;
  action: SnsAction;
  comparison?: ComparisonOperator;
}

/** Adds one of the tenant's alarms (`sis-<tenant>-<suffix>`) and returns it. */
export type AddAlarm = (id: string, suffix: string, options: TenantAlarmOptions) => Alarm;

/**
 * An alarm on one 5-minute datapoint that notifies `action` when it fires and when it clears;
 * missing data (an idle tenant) is not breaching.
 */
export function tenantAlarm(
  scope: Construct,
  tenant: string,
  id: string,
  suffix: string,
  options: TenantAlarmOptions,
): Alarm {
  const alarm = new Alarm(scope, id, {
    alarmName: tenantResourceName(tenant, suffix).slice(0, 255),
    alarmDescription: options.description,
    metric: options.metric,
    threshold: options.threshold,
    comparisonOperator: options.comparison ?? ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    datapointsToAlarm: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  alarm.addAlarmAction(options.action);
  alarm.addOkAction(options.action);
  return alarm;
}
