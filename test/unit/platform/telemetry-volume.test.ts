import { describe, expect, it } from 'vitest';
import { ACCESS_LOG_FIELDS } from '../../../infra/constructs/service-api';
import { parseTenantSettings } from '../../../infra/settings';
import { samplingRuleName, telemetryProfile } from '../../../infra/telemetry';
import {
  accessLogLineBytes,
  executionLogBytesPerSuccessEvent,
  LOG_EVENT_OVERHEAD_BYTES,
  PLATFORM_RECORDS_BYTES_AT_INFO,
  platformLogBytesPerInvocation,
  tracedShare,
} from '../../../scripts/telemetry-volume';

describe('telemetry profile and what it writes per call', () => {
  it('keeps routine success quiet by default and failures in full', () => {
    const profile = telemetryProfile(parseTenantSettings({ tenant: 'acme' }));
    expect(profile).toEqual({
      lambdaSystemLogLevel: 'WARN',
      lambdaApplicationLogLevel: 'INFO',
      executionLogLevel: 'ERROR',
      traced: true,
      traceSampleRate: 0.005,
      sourceMappedStacks: false,
    });
    expect(platformLogBytesPerInvocation(profile)).toBe(0);
    expect(executionLogBytesPerSuccessEvent(profile)).toBe(0);
    expect(tracedShare(profile)).toBe(0.005);
  });

  it('prices everything again with debugLogging, and nothing traced at rate 0', () => {
    const profile = telemetryProfile(
      parseTenantSettings({ tenant: 'acme', debugLogging: 'true', traceSampleRate: '0' }),
    );
    expect(profile.lambdaSystemLogLevel).toBe('INFO');
    expect(profile.lambdaApplicationLogLevel).toBe('DEBUG');
    expect(profile.executionLogLevel).toBe('ALL');
    expect(profile.sourceMappedStacks).toBe(true);
    expect(platformLogBytesPerInvocation(profile)).toBe(PLATFORM_RECORDS_BYTES_AT_INFO);
    expect(executionLogBytesPerSuccessEvent(profile)).toBeGreaterThan(0);
    expect(profile.traced).toBe(false);
    expect(tracedShare(profile)).toBe(0);
  });

  it('sizes an access-log line from the deployed format, and refuses a field it cannot size', () => {
    const bytes = accessLogLineBytes(JSON.stringify(ACCESS_LOG_FIELDS));
    expect(bytes).toBeGreaterThan(200);
    expect(bytes).toBeLessThan(400);
    expect(accessLogLineBytes('{"status":"$context.status"}')).toBe(
      '{"status":"200"}'.length + LOG_EVENT_OVERHEAD_BYTES,
    );
    expect(() => accessLogLineBytes('{"x":"$context.somethingNew"}')).toThrow(/somethingNew/);
  });

  it('names the sampling rule within X-Ray limits, distinct per tenant', () => {
    expect(samplingRuleName('acme')).toBe('sis-acme');
    const long = samplingRuleName('a'.repeat(31));
    expect(long).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(long).not.toBe(samplingRuleName(`${'a'.repeat(30)}b`));
  });
});
