import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { securityCopilotMcpManifest } from '../../../shared/api/mcp/manifest';
import { MCP_TOOLS } from '../../../shared/api/mcp/tools';
import { ROUTES } from '../../../shared/api/routes';

/** GET /plugin/security-copilot-mcp.yaml: Security Copilot's Format: MCP skill group over the key. */
describe('the Security Copilot MCP manifest', () => {
  const manifest = parse(
    securityCopilotMcpManifest({ publicUrl: 'https://sis.example/prod/', contactEmail: 'soc@sis.example' }),
  );

  it('points a Format: MCP skill group at the endpoint, streamable HTTP, with the plugin auth', () => {
    expect(Object.keys(manifest)).toEqual(['Descriptor', 'SkillGroups']);
    expect(manifest.SkillGroups).toEqual([
      {
        Format: 'MCP',
        Settings: {
          Endpoint: 'https://sis.example/prod/api/v1/mcp',
          UseStreamableHttp: true,
          UsePluginAuth: true,
          TimeoutInSeconds: expect.any(Number),
          AllowedTools: MCP_TOOLS.map((tool) => tool.name),
        },
      },
    ]);
    const endpoint = ROUTES.find((route) => route.operationId === 'mcp');
    expect(new URL(manifest.SkillGroups[0].Settings.Endpoint).pathname).toBe(`/prod${endpoint?.path}`);
  });

  it('asks for the API key in X-API-Key, and says results are data', () => {
    expect(manifest.Descriptor.SupportedAuthTypes).toEqual(['ApiKey']);
    expect(manifest.Descriptor.Authorization).toMatchObject({
      Type: 'APIKey',
      Key: 'X-API-Key',
      Location: 'Header',
    });
    expect(manifest.Descriptor.Description).toContain('untrusted data');
    expect(manifest.Descriptor.Name).toMatch(/^[^/\\?#@]{1,100}$/);
  });
});
