import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/core/errors';
import { newDoNotShareMark } from '../../../shared/domain/tenant-knowledge/do-not-share';

const NOW = new Date('2026-12-02T03:00:00Z');

describe('newDoNotShareMark', () => {
  it('normalises the entity like an investigated one and names who marked it', () => {
    expect(
      newDoNotShareMark(
        { entity_type: 'domain', value: ' Payroll.Contoso.COM. ', reason: ' NDA ' },
        'key:k1',
        NOW,
      ),
    ).toEqual({
      entity_type: 'domain',
      value: 'payroll.contoso.com',
      reason: 'NDA',
      marked_by: 'key:k1',
      marked_at: NOW.toISOString(),
    });
  });

  it.each([
    ['empty', '   '],
    ['invisible only', '\u200b\u200b'],
    ['a bidi override', 'ok \u202e evil'],
    ['an escape', 'ok \u001b[31m'],
  ])('refuses a reason that is %s', (_label, reason) => {
    expect(() => newDoNotShareMark({ entity_type: 'ip', value: '192.0.2.1', reason }, 'key:k1', NOW)).toThrow(
      ValidationError,
    );
  });

  it('refuses a value of another type', () => {
    expect(() =>
      newDoNotShareMark({ entity_type: 'ip', value: 'contoso.com', reason: 'NDA' }, 'key:k1', NOW),
    ).toThrow(ValidationError);
  });
});
