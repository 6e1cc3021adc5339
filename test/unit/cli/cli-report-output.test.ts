import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventDescriber, renderReport } from '../../../packages/cli/src/output';
import { buildReport } from '../../../shared/domain/investigation';
import { REPO } from '../../support/sis-cli';

type Report = NonNullable<Parameters<typeof renderReport>[1]>;

const ids = Array.from({ length: 10 }, (_, i) => `inc_${'a'.repeat(25)}${'bcdefghijk'[i]}`);
const head = { session_id: 's_01JD6Z7QK3Q0V8Y5N2B4C6D8EF', status: 'completed' };

function reportWith(recommendations: string[], extra: Partial<Report> = {}): Report {
  const built = buildReport({
    entity: { type: 'ip', value: '198.51.100.23' },
    toolCalls: [],
    sources: { feeds: [], connectors: [], analyst: 'rules' },
  });
  return { ...(built as unknown as Report), recommendations, ...extra };
}

describe('sis report text', () => {
  it('names linked incidents by title, one a line, with no empty list left behind', () => {
    const text = `Review the linked incidents: ${ids.slice(0, 5).join(', ')} and 5 more.`;
    const titles = new Map(
      ids.map((id, i) => [id, { title: `Cobalt Strike beacon ${i}`, severity: 'critical' }]),
    );
    const out = renderReport(head, reportWith([text]), undefined, titles);
    expect(out).toContain('  - Review the linked incidents:\n      Cobalt Strike beacon 0 (critical)');
    expect(out).toContain('      Cobalt Strike beacon 4 (critical)\n      and 5 more');
    expect(out).not.toMatch(/: ,|, ,|\.:/);
  });

  it('lists the sources: none consulted outside, disabled ones counted with how to enable them', () => {
    const out = renderReport(head, reportWith([]));
    expect(out).toContain('No outside source was consulted');
    expect(out).toMatch(/Sources \(0 of 26 consulted\):/);
    expect(out).toContain(
      '  disabled   9 feeds, 9 connectors, 1 analyst (sis feeds list, sis connectors list',
    );
  });

  it('says what changed in a session, one line an event, never a bare event name', () => {
    const describe = eventDescriber();
    const event = (type: string, detail: Record<string, unknown>) => ({
      event_id: 'e_1',
      type,
      detail,
      created_at: '2026-12-02T05:00:00Z',
    });
    expect(
      [
        event('status_changed', { status: 'initialized' }),
        event('status_changed', { status: 'active', tools: ['incident_history', 'feeds'] }),
        event('tool_skipped', { tool: 'intel_abuseipdb', reason: 'TLP red' }),
        event('report_ready', { verdict: 'malicious', risk_score: 92 }),
        event('analyst_fallback', { reason: 'max_tokens' }),
        event('status_changed', { status: 'failed', reason: 'engine fault' }),
        event('something_new', { tool: 'dns' }),
      ].map(describe),
    ).toEqual([
      '  status    initialized',
      '  status    initialized → active, 2 tools to run',
      '  skipped   intel_abuseipdb: TLP red',
      '  report    ready: verdict malicious, risk 92/100',
      '  analyst   fell back to the rules engine: max tokens',
      '  status    active → failed: engine fault',
      '  event     something new dns',
    ]);
  });

  it('exits quietly when the reader closes the pipe early (sis … | head)', async () => {
    const child = spawn(process.execPath, [join(REPO, 'bin', 'sis.mjs'), 'completion', 'bash'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(stderr).not.toMatch(/EPIPE|at .*\.js/);
    expect(code).toBe(0);
  }, 30_000);
});
