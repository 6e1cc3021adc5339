import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { fleetFromContext } from './fleet';
import { PrerequisitesStack } from './prerequisites-stack';
import { type TenantSettings, tenantSettingsFromContext } from './settings';
import { stackName, TenantStack } from './stack';

/**
 * The CDK app: one stack per tenant (one tenant from `-c tenant=`, or every tenant of a fleet
 * declared in context `fleet`, infra/fleet.ts) and the account prerequisites each account and region
 * needs once (infra/prerequisites-stack.ts), checked by cdk-nag's AWS Solutions pack during
 * synthesis. cdk-nag 3 is a policy-validation plugin (not an Aspect); a finding that is not
 * acknowledged, with a reason, on the construct it concerns fails `cdk synth`.
 */
export function buildTenantApp(props: AppProps = {}): {
  app: App;
  /** The first (for a single-tenant app, the only) tenant stack and its prerequisites. */
  stack: TenantStack;
  prerequisites: PrerequisitesStack;
  tenants: TenantStack[];
} {
  const app = new App(props);
  // A single tenant without -c region is environment-agnostic: the template is the same for every
  // account and region (the deploying credentials choose). A fleet pins each tenant's account and region.
  const placements: { account?: string; settings: TenantSettings }[] = fleetFromContext(app.node) ?? [
    { settings: tenantSettingsFromContext(app.node) },
  ];
  const prerequisitesByEnvironment = new Map<string, PrerequisitesStack>();
  const tenants = placements.map(({ account, settings }) => {
    const environment = `${account ?? ''}/${settings.region ?? ''}`;
    const prerequisites =
      prerequisitesByEnvironment.get(environment) ??
      new PrerequisitesStack(app, {
        ...(settings.region ? { region: settings.region } : {}),
        ...(account ? { account } : {}),
      });
    prerequisitesByEnvironment.set(environment, prerequisites);
    const stack = new TenantStack(app, stackName(settings.tenant), {
      settings,
      ...(account ? { env: { account, region: settings.region } } : {}),
    });
    // `cdk deploy SecurityInvestigation-<tenant>` deploys the prerequisites first (a no-op once they
    // exist); `--exclusively` skips them where the account already sets its own role.
    stack.addStackDependency(prerequisites, "API Gateway's account-level CloudWatch Logs role");
    return { stack, prerequisites };
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const [first] = tenants as [(typeof tenants)[number]];
  return {
    app,
    stack: first.stack,
    prerequisites: first.prerequisites,
    tenants: tenants.map((t) => t.stack),
  };
}
