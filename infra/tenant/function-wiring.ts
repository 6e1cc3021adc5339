import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { intelEnvPrefix } from '../../shared/domain/intel/names';
import { analystSettings } from '../constructs/analyst-model-grant';
import type { InvestigationWorkflow } from '../constructs/investigation-workflow';
import type { ServiceFunction } from '../constructs/service-function';
import type { TenantSettings } from '../settings';
import { variableNameOf } from '../settings/declaration';

/**
 * The functions that start investigation runs choose each run's state machine from the analyst mode
 * and the connectors (shared/domain/investigation/workflow-type.ts), so they get the same settings
 * as the steps, never a model grant or the connectors' secret.
 */
export function wireAnalystStarters(settings: TenantSettings, starters: readonly ServiceFunction[]): void {
  const analyst = analystSettings(settings);
  for (const fn of analyst ? starters : []) {
    for (const [key, value] of Object.entries(analyst?.environment ?? {})) fn.addEnvironment(key, value);
  }
}

/**
 * Intelligence connectors: the step that runs their tools (WORKFLOW_STEPS' `intelConnectors: run`,
 * step-run-intel) learns which connectors to use and reads their keys from the tenant's secret (the
 * only function granted it); the step that plans a run's tools (`plan`, step-mark-active), the
 * starters and the connectors admin route learn the same settings, to plan and to show them, without
 * any access to the secret.
 */
export function wireIntelConnectors(
  settings: TenantSettings,
  workflow: InvestigationWorkflow,
  starters: readonly ServiceFunction[],
  admin: ServiceFunction | undefined,
): void {
  const enabled: Record<string, string> = {
    ...Object.fromEntries(
      settings.intelConnectors.map((name) => [`${intelEnvPrefix(name)}_ENABLED`, 'true']),
    ),
    ...(settings.intelSecretArn ? { [variableNameOf('intelSecretArn')]: settings.intelSecretArn } : {}),
    ...(settings.intelConnectors.includes('misp') && settings.intelMispUrl
      ? { [variableNameOf('intelMispUrl')]: settings.intelMispUrl }
      : {}),
  };
  // Only the tools' gate reads the internal suffixes (a name under them is never sent out).
  const internal: Record<string, string> = settings.internalSuffixes
    ? { [variableNameOf('internalSuffixes')]: settings.internalSuffixes }
    : {};
  const recipients = [
    ...workflow.intelConnectorSteps.map(({ fn, use }) => ({
      fn,
      environment: use === 'run' ? { ...enabled, ...internal } : enabled,
    })),
    // A run that will look a connector up goes to the Standard state machine (workflow-type.ts).
    ...starters.map((fn) => ({ fn, environment: enabled })),
    ...(admin ? [{ fn: admin, environment: { ...enabled, ...internal } }] : []),
  ];
  for (const { fn, environment } of recipients) {
    for (const [key, value] of Object.entries(environment)) fn.addEnvironment(key, value);
  }
  if (settings.intelSecretArn && settings.intelConnectors.length > 0) {
    for (const { fn } of workflow.intelConnectorSteps.filter((step) => step.use === 'run')) {
      fn.function.addToRolePolicy(
        new PolicyStatement({
          actions: ['secretsmanager:GetSecretValue'],
          resources: [settings.intelSecretArn],
        }),
      );
    }
  }
}
