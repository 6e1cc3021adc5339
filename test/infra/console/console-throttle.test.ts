import { describe, expect, it } from 'vitest';
import { resourcesOfType, synthTenantStack, type TemplateJson } from '../../support/synth';

/**
 * Issue #27 item 4: the console's routes had no throttle (people sign in, so no key's usage plan
 * applies). The stage throttles every console method, for all signed-in people together, and leaves
 * the key routes to their usage plans.
 */
interface MethodSetting {
  ResourcePath: string;
  HttpMethod: string;
  ThrottlingRateLimit?: number;
  ThrottlingBurstLimit?: number;
}

function methodSettings(context: Record<string, unknown> = {}): MethodSetting[] {
  const { template } = synthTenantStack(context);
  const [stage] = [...resourcesOfType(template.toJSON() as TemplateJson, 'AWS::ApiGateway::Stage').values()];
  return (stage?.Properties.MethodSettings as MethodSetting[] | undefined) ?? [];
}

const path = (p: string) => `/${p.replaceAll('/', '~1')}`;

describe('console route throttle', () => {
  it('throttles every console method at the stage, and no key route', () => {
    const settings = methodSettings();
    const consoleStart = settings.find(
      (s) => s.ResourcePath === path('/api/v1/console/investigations') && s.HttpMethod === 'POST',
    );
    expect(consoleStart).toMatchObject({ ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 });
    const throttled = settings.filter((s) => s.ThrottlingRateLimit !== undefined);
    expect(throttled.length).toBeGreaterThanOrEqual(15);
    expect(
      throttled.every(
        (s) =>
          s.ResourcePath.startsWith(path('/api/v1/console/')) || s.ResourcePath.startsWith(path('/console/')),
      ),
    ).toBe(true);
  });

  it('takes its limits from the settings', () => {
    const settings = methodSettings({ consoleRateLimitPerSecond: '5', consoleBurstLimit: '8' });
    const me = settings.find((s) => s.ResourcePath === path('/api/v1/console/me'));
    expect(me).toMatchObject({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 8 });
  });
});
