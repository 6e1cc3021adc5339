import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { aiPluginManifest } from '../../../shared/api/plugin-manifests';
import { securityCopilotManifest } from '../../../shared/api/security-copilot-manifest';

/**
 * Holds the Security Copilot manifest against the field set of Microsoft's documented API-key plugin
 * manifest (test/fixtures/security-copilot/api-key-plugin-manifest-fields.json, written from the
 * documentation and the samples' shape): exactly the documented keys at every level, nothing extra.
 */
const FIELDS = JSON.parse(
  readFileSync(
    new URL('../../fixtures/security-copilot/api-key-plugin-manifest-fields.json', import.meta.url),
    'utf8',
  ),
) as {
  topLevelKeys: string[];
  descriptor: { required: string[]; optional: string[] };
  descriptorSetting: { required: string[]; optional: string[] };
  supportedAuthTypes: string[];
  authorization: { keys: string[]; type: string; locations: string[] };
  skillGroup: { keys: string[]; format: string; settings: string[] };
  limits: { nameMax: number; nameForbidden: string; displayNameMax: number; descriptionMax: number };
};

type Yaml = Record<string, any>;

function expectKeys(object: Yaml, required: string[], optional: string[], where: string) {
  const keys = Object.keys(object);
  for (const key of required) expect(keys, `${where} lacks ${key}`).toContain(key);
  const extra = keys.filter((key) => !required.includes(key) && !optional.includes(key));
  expect(extra, `${where} has undocumented keys`).toEqual([]);
}

/** Every string value that looks like a URL, wherever it sits in a manifest. */
function urlsIn(value: unknown): string[] {
  if (typeof value === 'string') return /^https?:\/\//i.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(urlsIn);
  return [];
}

const options = { publicUrl: 'https://api.example.test/prod', contactEmail: 'soc@example.com' };
const manifest = parse(securityCopilotManifest(options)) as Yaml;

describe("the Security Copilot manifest against Microsoft's documented API-key manifest", () => {
  it('has exactly the two documented top-level keys, Descriptor and SkillGroups', () => {
    expect(Object.keys(manifest).sort()).toEqual([...FIELDS.topLevelKeys].sort());
  });

  it('has only documented Descriptor fields, with SupportedAuthTypes [ApiKey] next to Authorization', () => {
    const descriptor = manifest.Descriptor as Yaml;
    expectKeys(descriptor, FIELDS.descriptor.required, FIELDS.descriptor.optional, 'Descriptor');
    expect(descriptor.SupportedAuthTypes).toEqual(FIELDS.supportedAuthTypes);
    expect(Object.keys(descriptor.Authorization).sort()).toEqual([...FIELDS.authorization.keys].sort());
    expect(descriptor.Authorization.Type).toBe(FIELDS.authorization.type);
    expect(FIELDS.authorization.locations).toContain(descriptor.Authorization.Location);
    expect(descriptor.Authorization.Key).toBe('X-API-Key');
    expect(descriptor.Name.length).toBeLessThanOrEqual(FIELDS.limits.nameMax);
    for (const c of FIELDS.limits.nameForbidden) expect(descriptor.Name).not.toContain(c);
    expect(descriptor.DisplayName.length).toBeLessThanOrEqual(FIELDS.limits.displayNameMax);
    expect(descriptor.Description.length).toBeLessThanOrEqual(FIELDS.limits.descriptionMax);
  });

  it('declares the instance-URL setting with the documented setting fields', () => {
    for (const setting of manifest.Descriptor.Settings as Yaml[]) {
      expectKeys(setting, FIELDS.descriptorSetting.required, FIELDS.descriptorSetting.optional, 'Setting');
    }
    const names = (manifest.Descriptor.Settings as Yaml[]).map((s) => s.Name);
    expect(names).toContain(manifest.SkillGroups[0].Settings.EndpointUrlSettingName);
  });

  it('has one API skill group with exactly the documented settings', () => {
    expect(manifest.SkillGroups).toHaveLength(1);
    const group = manifest.SkillGroups[0] as Yaml;
    expect(Object.keys(group).sort()).toEqual([...FIELDS.skillGroup.keys].sort());
    expect(group.Format).toBe(FIELDS.skillGroup.format);
    expect(Object.keys(group.Settings).sort()).toEqual([...FIELDS.skillGroup.settings].sort());
    expect(group.Settings.OpenApiSpecUrl).toBe('https://api.example.test/prod/plugin/openapi.json');
  });

  it('publishes no URL outside the service (no sample endpoint in a hint), and the OpenAI manifest a served legal page', () => {
    for (const url of urlsIn(manifest)) expect(url.startsWith('https://api.example.test/prod/')).toBe(true);
    const openAi = aiPluginManifest(options);
    expect(openAi.legal_info_url).toBe('https://api.example.test/prod/legal');
    for (const url of urlsIn(openAi)) expect(url.startsWith('https://api.example.test/prod/')).toBe(true);
    const withOwnTerms = aiPluginManifest({ ...options, legalUrl: 'https://contoso.example/terms' });
    expect(withOwnTerms.legal_info_url).toBe('https://contoso.example/terms');
  });
});
