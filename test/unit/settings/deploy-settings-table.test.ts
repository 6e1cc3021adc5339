import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTenantSettings } from '../../../infra/settings';
import { SETTING_NAMES, SETTINGS, variableOf } from '../../../infra/settings/declaration';
import { declaredDefault, SETTINGS_TABLE_FILE, withSettingsTable } from '../../../infra/settings/docs-table';
import { everyFunctionEnvironment } from '../../../infra/tenant/environment';
import { configSchema, parseConfig } from '../../../shared/config';

/* The settings' one declaration (infra/settings/declaration.ts) and what is derived from it. */
describe('deployment settings declaration', () => {
  it('is what docs/deploy.md tabulates (npm run docs:settings rewrites the table)', () => {
    const markdown = readFileSync(SETTINGS_TABLE_FILE, 'utf8');
    expect(withSettingsTable(markdown)).toBe(markdown);
  });

  it("documents each setting's own default in its Default column", () => {
    for (const name of SETTING_NAMES) {
      const fallback = declaredDefault(name);
      if (['string', 'number', 'boolean'].includes(typeof fallback)) {
        expect(SETTINGS[name].docs.default, name).toContain(`\`${String(fallback)}\``);
      }
    }
  });

  it('names only variables the functions declare (shared/config.ts)', () => {
    const declared = Object.keys(configSchema().shape);
    for (const name of SETTING_NAMES) {
      const variable = variableOf(name);
      if (!variable) continue;
      const pattern = new RegExp(`^${variable.name.replace('<NAME>', '[A-Z0-9_]+')}$`);
      expect(
        declared.some((key) => pattern.test(key)),
        `${name} → ${variable.name}`,
      ).toBe(true);
    }
  });

  it("gives every function each 'every function' setting, in a form the functions accept", () => {
    const settings = parseTenantSettings({
      tenant: 'acme',
      legalUrl: 'https://example.com/terms',
      contactEmail: 'soc@example.com',
      syncWaitSeconds: '12',
    });
    const environment = everyFunctionEnvironment(settings);
    const expected = SETTING_NAMES.filter((name) => variableOf(name)?.on === 'every function').map(
      (name) => variableOf(name)?.name,
    );
    expect(Object.keys(environment)).toEqual(expected);
    expect(environment).toMatchObject({ SIS_TENANT: 'acme', SIS_SYNC_WAIT_SECONDS: '12' });
    const cfg = parseConfig(environment);
    expect(cfg.SIS_LEGAL_URL).toBe('https://example.com/terms');
    expect(cfg.SIS_SYNC_WAIT_SECONDS).toBe(12);
  });

  it('leaves an unset optional setting out of the environment', () => {
    const environment = everyFunctionEnvironment(parseTenantSettings({ tenant: 'acme' }));
    expect(environment).not.toHaveProperty('SIS_LEGAL_URL');
    expect(environment).not.toHaveProperty('SIS_CONTACT_EMAIL');
  });
});
