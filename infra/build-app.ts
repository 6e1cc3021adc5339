import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PrerequisitesStack } from './prerequisites-stack';
import { tenantSettingsFromContext } from './settings';
import { stackName, TenantStack } from './stack';

/**
 * The CDK app: one stack per tenant and the account prerequisites it needs (infra/prerequisites-stack.ts), checked by cdk-nag's AWS Solutions pack during synthesis. cdk-nag 3
 * is a policy-validation plugin (not an Aspect); a finding that is not acknowledged, with a reason,
 * on the construct it concerns fails `cdk synth`.
 */
export function buildTenantApp(props: AppProps = {}): {
  app: App;
  stack: TenantStack;
  prerequisites: PrerequisitesStack;
} {
  const app = new App(props);
  const settings = tenantSettingsFromContext(app.node);
  // Environment-agnostic: the template is the same for every account and region (the deploying
  // credentials choose), and `cdk synth` produces what the tests assert on.
  const prerequisites = new PrerequisitesStack(app, { region: settings.region });
  const stack = new TenantStack(app, stackName(settings.tenant), { settings });
  // `cdk deploy SecurityInvestigation-<tenant>` deploys the prerequisites first (a no-op once they
  // exist); `--exclusively` skips them where the account already sets its own role.
  stack.addStackDependency(prerequisites, "API Gateway's account-level CloudWatch Logs role");
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack, prerequisites };
}
