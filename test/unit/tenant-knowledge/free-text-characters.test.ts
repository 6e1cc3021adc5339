import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/core/errors';
import { parseFeed } from '../../../shared/domain/feeds/parsers';
import { newAllowlistEntry } from '../../../shared/domain/tenant-knowledge/allowlist';
import { newFeedback } from '../../../shared/domain/tenant-knowledge/feedback';

const NOW = new Date('2026-11-27T10:00:00Z');
const INVISIBLE = ['\u200b\u200b', 'ok \u202egnp.exe', 'red \u001b[31m alert', 'nul\u0000'];

/** issue 36, item 7: invisible and control characters in free text and feed strings. */
describe('control and invisible characters', () => {
  it.each(INVISIBLE)('an allowlist reason %j is refused (400)', (reason) => {
    expect(() => newAllowlistEntry({ type: 'ip', value: '198.51.100.7', reason }, 'user:admin', NOW)).toThrow(
      ValidationError,
    );
  });

  it.each(INVISIBLE)('a feedback comment %j is refused (400)', (comment) => {
    expect(() =>
      newFeedback(
        { verdict: 'false_positive', comment } as never,
        { session_id: 's1' },
        { name: 'key:k', role: 'admin' },
        NOW,
      ),
    ).toThrow(ValidationError);
  });

  it('plain text with line breaks is still accepted', () => {
    expect(
      newAllowlistEntry(
        { type: 'ip', value: '198.51.100.7', reason: 'Partner VPN\nticket 42' },
        'user:admin',
        NOW,
      ).reason,
    ).toBe('Partner VPN\nticket 42');
  });

  it('feed-supplied IDs, tags and malware names are stripped of them', () => {
    const csv =
      '"2024-11-27 10:00:00", "12\u200b3", "evil.example.com", "domain", "botnet_cc", "x", "", "Emo\u202etet", "", "75", "", "t\u001bag", "0", "r"';
    const [indicator] = parseFeed('threatfox', new TextEncoder().encode(csv)).indicators;
    expect(indicator?.details).toMatchObject({
      reference: 'threatfox:123',
      malware: 'Emotet',
      tags: ['tag'],
    });
  });
});
