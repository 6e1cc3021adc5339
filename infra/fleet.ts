import { readFileSync } from 'node:fs';
import type { Node } from 'constructs';
import { z } from 'zod';
import {
  parseTenantSettings,
  SETTING_KEYS,
  SettingsError,
  settingsInContext,
  type TenantSettings,
} from './settings';
import { jsonContext } from './settings/context-values';
import { SETTINGS } from './settings/declaration';

/**
 * A fleet: many tenants from one app (docs/deploy.md "A fleet of tenants"). The context key `fleet`
 * holds the declaration, in cdk.json or `-c fleet=fleet.json` (a file) or `-c fleet='[...]'`: one
 * entry per tenant with the account and region its stack goes to and its own settings, which win
 * over the settings the app's context gives every tenant. Each entry's settings go through the same
 * schemas and rules as a single tenant's (infra/settings.ts), so a fleet refuses at synth what a
 * single deploy would, naming the tenant.
 */
const SETTING_KEY_SET = new Set<string>(SETTING_KEYS);

const fleetTenantSchema = z
  .object({
    tenant: z.string(),
    account: z.string().regex(/^\d{12}$/, 'must be a 12-digit AWS account ID'),
    region: SETTINGS.region.schema.unwrap(),
    settings: z.record(z.string(), z.unknown()).default({}),
  })
  .strict()
  .refine((entry) => Object.keys(entry.settings).every((key) => SETTING_KEY_SET.has(key)), {
    error: (issue) =>
      `settings may name only deployment settings (docs/deploy.md); unknown: ${Object.keys(
        (issue.input as { settings: object }).settings,
      )
        .filter((key) => !SETTING_KEY_SET.has(key))
        .join(', ')}`,
    path: ['settings'],
  })
  .refine((entry) => !('tenant' in entry.settings || 'region' in entry.settings), {
    error: 'tenant and region are given beside settings, not in them',
    path: ['settings'],
  });

export type FleetEntry = z.input<typeof fleetTenantSchema>;

export interface FleetTenant {
  account: string;
  settings: TenantSettings & { region: string };
}

/** The fleet the context declares, or undefined for a single-tenant app (`-c tenant=`). */
export function fleetFromContext(node: Node): FleetTenant[] | undefined {
  const declared = node.tryGetContext('fleet') as unknown;
  if (declared === undefined || declared === '') return undefined;
  const shared = settingsInContext(node);
  if ('tenant' in shared)
    throw new SettingsError(
      "Invalid deployment settings: context 'tenant' and 'fleet' are both set: a fleet names each tenant in its entries",
    );
  return parseFleet(readDeclaration(declared), shared);
}

function readDeclaration(declared: unknown): unknown {
  if (typeof declared === 'string' && !declared.trim().startsWith('[')) {
    try {
      return JSON.parse(readFileSync(declared, 'utf8'));
    } catch (error) {
      throw new SettingsError(
        `Invalid fleet: context 'fleet' names ${declared}, which is not a readable JSON file (${(error as Error).message})`,
      );
    }
  }
  return jsonContext(declared);
}

/** Each entry's settings: the shared context, then its own, then its tenant and region. */
export function parseFleet(declaration: unknown, shared: Record<string, unknown> = {}): FleetTenant[] {
  const parsed = z.array(fleetTenantSchema).min(1, 'must declare at least one tenant').safeParse(declaration);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `fleet[${issue.path.join('.')}] ${issue.message}`);
    throw new SettingsError(`Invalid fleet: ${problems.join('; ')}`);
  }
  const seen = new Set<string>();
  return parsed.data.map((entry, index) => {
    // Stack IDs are `SecurityInvestigation-<tenant>` across the whole app, whatever the account.
    if (seen.has(entry.tenant))
      throw new SettingsError(`Invalid fleet: fleet[${index}] tenant ${entry.tenant} is declared twice`);
    seen.add(entry.tenant);
    try {
      const settings = parseTenantSettings({
        ...shared,
        ...entry.settings,
        tenant: entry.tenant,
        region: entry.region,
      });
      return { account: entry.account, settings: { ...settings, region: entry.region } };
    } catch (error) {
      throw new SettingsError(
        `Invalid fleet: fleet[${index}] (${entry.tenant}): ${(error as Error).message}`,
      );
    }
  });
}
