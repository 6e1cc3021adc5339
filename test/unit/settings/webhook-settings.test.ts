import { describe, expect, it } from 'vitest';
import { functionConfigProblem } from '../../../infra/function-config';
import { parseTenantSettings } from '../../../infra/settings';
import { everyFunctionEnvironment } from '../../../infra/tenant/environment';
import { parseConfig } from '../../../shared/config';

/* The webhook settings (docs/soar.md "Webhooks"): declared once, handed to every function, loopback refused at synth. */
describe('webhook deployment settings', () => {
  it('hands the functions a timeout and a retry schedule they accept', () => {
    const environment = everyFunctionEnvironment(
      parseTenantSettings({ tenant: 'acme', webhookTimeoutSeconds: '8', webhookRetrySchedule: '10, 600' }),
    );
    expect(environment).toMatchObject({
      SIS_WEBHOOK_TIMEOUT_SECONDS: '8',
      SIS_WEBHOOK_RETRY_SCHEDULE: '10, 600',
      SIS_WEBHOOK_ALLOW_LOOPBACK: 'false',
    });
    const cfg = parseConfig(environment);
    expect(cfg.SIS_WEBHOOK_TIMEOUT_SECONDS).toBe(8);
    expect(cfg.SIS_WEBHOOK_RETRY_SCHEDULE).toEqual([10, 600]);
    expect(functionConfigProblem(environment)).toBeUndefined();
  });

  it('refuses a timeout above 15 s and a malformed schedule, naming the setting', () => {
    expect(() => parseTenantSettings({ tenant: 'acme', webhookTimeoutSeconds: '16' })).toThrow(
      /webhookTimeoutSeconds/,
    );
    expect(() => parseTenantSettings({ tenant: 'acme', webhookRetrySchedule: '5,soon' })).toThrow(
      /webhookRetrySchedule.*"soon"/,
    );
  });

  it('refuses allowLoopback=true at synth, naming the variable and the setting', () => {
    const environment = everyFunctionEnvironment(
      parseTenantSettings({ tenant: 'acme', webhookAllowLoopback: 'true' }),
    );
    // The functions themselves accept it (local tests run with it) ...
    expect(parseConfig(environment).SIS_WEBHOOK_ALLOW_LOOPBACK).toBe(true);
    // ... the synth-time check of every function's environment does not.
    expect(functionConfigProblem(environment)).toMatch(
      /^SIS_WEBHOOK_ALLOW_LOOPBACK=true .*local tests only.*\(deployment setting webhookAllowLoopback\)$/,
    );
    expect(functionConfigProblem({ SIS_WEBHOOK_ALLOW_LOOPBACK: '1' })).toMatch(/webhookAllowLoopback/);
    expect(functionConfigProblem({ SIS_WEBHOOK_ALLOW_LOOPBACK: 'false' })).toBeUndefined();
  });
});
