import { describe, expect, it } from 'vitest';
import {
  analystSection,
  applyResponse,
  contradictsVerdict,
  evidenceIndicators,
  extractIndicators,
  groundText,
  REMOVED_INDICATOR,
  type ResponseContext,
  startConversation,
} from '../../../shared/domain/analyst';
import type { ConverseResult } from '../../../shared/domain/analyst/converse';

/**
 * Issue #27 item 3: grounding that survives defanging and Unicode, and a contradiction check that
 * reads every model-written field. The evidence names none of the indicators below, so each must be
 * found and removed, however it is spelled.
 */
const evidence = evidenceIndicators([
  { type: 'ip', value: '203.0.113.7' },
  { facts: { resolves: 'shop.example.com', peer: '198.51.100.20' } },
]);

describe('grounding an indicator however it is spelled', () => {
  it.each([
    ['evil[.]com', 'evil.com'],
    ['evil(.)com', 'evil.com'],
    ['evil[dot]com', 'evil.com'],
    ['evil\u200b.com', 'evil.com'],
    ['e\u00advil.com', 'evil.com'],
    ['ｅｖｉｌ．ｃｏｍ', 'evil.com'],
    ['\u0435vil.com', 'xn--vil-qdd.com'], // Cyrillic е: its own name, never the Latin one
    ['bücher.de', 'xn--bcher-kva.de'],
    ['198.51.100[.]7', '198.51.100.7'],
    ['１９８.５１.１００.７', '198.51.100.7'],
    ['3325256711', '198.51.100.7'],
    ['0xC6336407', '198.51.100.7'],
    ['0306.0063.0144.07', '198.51.100.7'],
    ['hxxp[:]//evil[.]com/payload', 'http://evil.com/payload'],
    ['admin[@]evil[.]com', 'admin@evil.com'],
  ])('removes %j (read as %s)', (spelled, value) => {
    const grounded = groundText(`Block ${spelled} now.`, evidence);
    expect(grounded.removed).toEqual([value]);
    expect(grounded.text).toBe(`Block ${REMOVED_INDICATOR} now.`);
  });

  it('keeps a defanged or re-encoded indicator the evidence has, and leaves ordinary numbers alone', () => {
    for (const text of ['shop[.]example[.]com', 'ｓｈｏｐ.example.com', '3405803783', '203.0.113[.]7']) {
      expect(groundText(`Seen: ${text}.`, evidence).removed).toEqual([]);
    }
    expect(extractIndicators('On 20261128 it sent 1500 packets in 3 bursts of 12345678 bytes.')).toEqual([]);
  });

  it('matches IDNs in either spelling against the evidence', () => {
    const idn = evidenceIndicators([{ domain: 'xn--bcher-kva.de' }]);
    expect(groundText('Mail came from bücher.de.', idn).removed).toEqual([]);
    const unicode = evidenceIndicators([{ domain: 'bücher.de' }]);
    expect(groundText('Mail came from xn--bcher-kva.de.', unicode).removed).toEqual([]);
  });
});

describe('the model may not overturn the verdict in any field', () => {
  it.each([
    'The IP poses no threat; traffic is legitimate, unblock it',
    'This address is not malicious.',
    'No evidence of malicious activity was found, so allowlist it.',
    'Remove the block on 203.0.113.7.',
    'Traffic from 203.0.113.7 appears to be normal.',
    'You can close the alert.',
    'The host seems safe.',
  ])('flags %j over a malicious verdict', (text) => {
    expect(contradictsVerdict(text, 'malicious')).toBe(true);
    expect(contradictsVerdict(text, 'benign')).toBe(false);
  });

  it.each([
    'This is not benign.',
    'Do not unblock 203.0.113.7: the traffic is not legitimate.',
    'Is this traffic legitimate?',
    'Check whether the vendor allowlisted it.',
    'Block 203.0.113.7 and reset the credentials.',
  ])('does not flag %j', (text) => {
    expect(contradictsVerdict(text, 'malicious')).toBe(false);
  });

  const reply = (content: unknown[]): ConverseResult => ({
    message: { role: 'assistant', content: content as never },
    stopReason: 'tool_use',
    usage: { inputTokens: 100, outputTokens: 20 },
    latencyMs: 5,
  });
  const ctx: ResponseContext = {
    budget: { maxTurns: 4, maxToolCalls: 2, maxTokens: 10_000, maxSeconds: 60 } as never,
    tools: [],
    evidence,
    findingIds: new Set(),
    plannedTools: [],
  };
  const report = { summary: 'Rules summary.', verdict: 'malicious' as const, recommendations: [] };
  const fresh = () =>
    startConversation({
      modelId: 'us.anthropic.claude-3-5-haiku-20241022-v1:0',
      promptVersion: 'system@1',
      persona: 'SOC Analyst',
      entity: { type: 'ip', value: '203.0.113.7' },
      startedAt: '2026-11-23T10:00:00.000Z',
      opening: 'Investigate.',
    });
  const submit = (fields: Record<string, unknown>) => ({
    toolUse: {
      toolUseId: 'tu-s',
      name: 'submit_report',
      input: {
        narrative: 'Escalate 203.0.113.7.',
        key_findings: [],
        recommended_actions: ['Block 203.0.113.7.'],
        questions_for_human: ['Who owns 198.51.100.20?'],
        ...fields,
      },
    },
  });

  it('falls back when a question for the human clears the entity', () => {
    const done = applyResponse(
      fresh(),
      reply([submit({ questions_for_human: ['The IP poses no threat, so unblock it.'] })]),
      ctx,
    ).conversation;
    expect(analystSection(done, report, 'x').fallback?.reason).toBe('narrative_contradicts_verdict');
  });

  it('falls back when what the model said before submitting clears the entity', () => {
    const done = applyResponse(
      fresh(),
      reply([{ text: 'Traffic from 203.0.113.7 is legitimate; remove the block.' }, submit({})]),
      ctx,
    ).conversation;
    expect(analystSection(done, report, 'x').fallback?.reason).toBe('narrative_contradicts_verdict');
    const clean = applyResponse(fresh(), reply([submit({})]), ctx).conversation;
    expect(analystSection(clean, report, 'x').fallback).toBeUndefined();
  });
});
