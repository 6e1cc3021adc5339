import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  csvFields,
  parseFeodo,
  parseIpLines,
  parseSpamhausDrop,
  parseThreatFox,
  parseTranco,
  parseUrlhausCsv,
  parseUrlLines,
} from '../../../shared/domain/feeds/parsers';

const fixture = (name: string) => new Uint8Array(readFileSync(join(__dirname, '../../fixtures/feeds', name)));
const values = (parsed: { indicators: { value: string }[] }) => parsed.indicators.map((i) => i.value);

describe('Spamhaus DROP', () => {
  it('reads the JSON lines, takes the metadata line as time and notice, rejects invalid networks', () => {
    const parsed = parseSpamhausDrop(fixture('drop_v4.jsonl'));
    expect(values(parsed)).toEqual(['1.10.16.0/20', '198.51.100.0/24', '203.0.113.128/25']);
    expect(parsed.indicators[0]?.details?.reference).toBe('SBL256894');
    expect(parsed.rejected).toBe(2);
    expect(parsed.generated_at).toBe('2024-11-27T10:40:00.000Z');
    expect(parsed.notice).toContain('Spamhaus');
  });

  it('reads the IPv6 file and the older drop.txt with its ; comments', () => {
    expect(values(parseSpamhausDrop(fixture('drop_v6.jsonl')))).toEqual(['2001:db8:bad:0:0:0:0:0/48']);
    const txt = parseSpamhausDrop(fixture('drop.txt'));
    expect(values(txt)).toEqual(['1.10.16.0/20', '198.51.100.0/24']);
    expect(txt.indicators[1]?.details?.reference).toBe('SBL999001');
    expect(txt.rejected).toBe(1);
  });
});

describe('Feodo Tracker', () => {
  it('reads ipblocklist.json with first seen, last online, malware and port', () => {
    const parsed = parseFeodo(fixture('feodo-ipblocklist.json'));
    expect(values(parsed)).toEqual(['198.51.100.23', '203.0.113.77']);
    expect(parsed.indicators[0]?.details).toEqual({
      first_seen: '2024-11-20T08:15:31.000Z',
      last_seen: '2024-11-27T00:00:00.000Z',
      malware: 'QakBot',
      threat: 'online',
      port: 443,
    });
    expect(parsed.rejected).toBe(1);
  });

  it('reads the .txt list with its # banner', () => {
    const parsed = parseFeodo(fixture('feodo-ipblocklist.txt'));
    expect(values(parsed)).toEqual(['198.51.100.23', '203.0.113.77']);
    expect(parsed.rejected).toBe(0);
  });

  it('a body that is not JSON nor a list yields nothing valid', () => {
    const parsed = parseFeodo(new TextEncoder().encode('<html><body>Service unavailable</body></html>'));
    expect(parsed.indicators).toEqual([]);
    expect(parsed.rejected).toBeGreaterThan(0);
  });
});

describe('URLhaus recent.csv', () => {
  it('takes each URL host (name, IPv4, IPv6) with dates, threat and tags; rejects a non-URL', () => {
    const parsed = parseUrlhausCsv(fixture('urlhaus-recent.csv'));
    expect(values(parsed)).toEqual([
      '203.0.113.9',
      'malware-host.example.com',
      'malware-host.example.com',
      '2001:db8:0:0:0:0:0:66',
    ]);
    expect(parsed.indicators.every((i) => i.via === 'url_host')).toBe(true);
    expect(parsed.indicators[1]?.details).toMatchObject({
      first_seen: '2024-11-27T09:58:11.000Z',
      threat: 'malware_download',
      tags: ['exe', 'AgentTesla'],
      reference: 'urlhaus:3334622',
    });
    expect(parsed.indicators[2]?.details?.tags).toBeUndefined();
    expect(parsed.rejected).toBe(1);
    expect(parsed.generated_at).toBe('2024-11-27T10:10:05.000Z');
  });
});

describe('ThreatFox', () => {
  it('reads the CSV export (", " separators): ip:port, domain, url; skips hashes; rejects a broken row', () => {
    const parsed = parseThreatFox(fixture('threatfox-recent.csv'));
    expect(parsed.indicators.map((i) => [i.via, i.value])).toEqual([
      ['address', '192.0.2.44'],
      ['domain', 'evil-c2.example.org'],
      ['url_host', 'drop.example.net'],
    ]);
    expect(parsed.indicators[0]?.details).toMatchObject({
      port: 443,
      threat: 'botnet_cc',
      malware: 'Cobalt Strike',
      confidence: 100,
      tags: ['c2', 'CobaltStrike'],
      reference: 'threatfox:1345678',
    });
    expect(parsed.indicators[1]?.details?.last_seen).toBe('2024-11-27T10:00:00.000Z');
    expect(parsed.skipped).toBe(1);
    expect(parsed.rejected).toBe(1);
  });

  it('reads the JSON export keyed by IOC id', () => {
    const parsed = parseThreatFox(fixture('threatfox-recent.json'));
    // JSON objects list integer-like keys in ascending order.
    expect(parsed.indicators.map((i) => [i.via, i.value, i.details?.reference])).toEqual([
      ['domain', 'evil-c2.example.org', 'threatfox:1345677'],
      ['address', '192.0.2.44', 'threatfox:1345678'],
    ]);
  });

  it('splits quoted CSV fields with embedded commas and doubled quotes', () => {
    expect(csvFields('"a","b, c","d ""e"""')).toEqual(['a', 'b, c', 'd "e"']);
    expect(csvFields('"a", "b", ""')).toEqual(['a', 'b', '']);
    expect(csvFields('x,,z,')).toEqual(['x', '', 'z', '']);
  });
});

describe('plain lists', () => {
  it('OpenPhish: one URL a line, the host kept', () => {
    const parsed = parseUrlLines(fixture('openphish-feed.txt'));
    expect(values(parsed)).toEqual([
      'login-micros0ft.example.com',
      'secure-bank.example.net',
      'login-micros0ft.example.com',
    ]);
    expect(parsed.rejected).toBe(1);
  });

  it('Tor exits, CINS, ET: one IP a line; an invalid address is rejected', () => {
    expect(values(parseIpLines(fixture('torbulkexitlist')))).toEqual([
      '192.0.2.10',
      '192.0.2.11',
      '198.51.100.200',
    ]);
    const cins = parseIpLines(fixture('ci-badguys.txt'));
    expect(values(cins)).toEqual(['192.0.2.66', '198.51.100.66']);
    expect(cins.rejected).toBe(1);
    expect(values(parseIpLines(fixture('compromised-ips.txt')))).toEqual(['192.0.2.99', '203.0.113.99']);
  });
});

describe('Tranco', () => {
  it('reads rank,domain from inside top-1m.csv.zip and from the bare CSV', () => {
    for (const file of ['top-1m.csv.zip', 'top-1m.csv']) {
      const parsed = parseTranco(fixture(file));
      expect(parsed.indicators.map((i) => [i.value, i.rank])).toEqual([
        ['google.com', 1],
        ['microsoft.com', 2],
        ['example.com', 3],
        ['github.io', 4],
        ['malware-host.example.com', 5],
      ]);
      expect(parsed.rejected).toBe(2);
    }
  });

  it('a corrupt zip yields nothing valid', () => {
    const zip = fixture('top-1m.csv.zip').slice(0, 60);
    const parsed = parseTranco(zip);
    expect(parsed.indicators).toEqual([]);
    expect(parsed.rejected).toBeGreaterThan(0);
  });
});
