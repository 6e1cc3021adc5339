import { describe, expect, it } from 'vitest';
import { normaliseEntity } from '../../shared/domain/core/entity-normalisation';
import { BRANDS } from '../../shared/domain/data/brands';
import { brandMatches, runToolByName, type ToolOutput } from '../../shared/domain/investigation';
import {
  editDistance,
  scriptsOf,
  shannonEntropy,
  skeleton,
} from '../../shared/domain/investigation/tools/lookalike';
import { context } from './investigation-test-data';

async function analyse(value: string): Promise<ToolOutput> {
  const entity = normaliseEntity({ type: 'domain', value });
  const call = await runToolByName('domain_analysis', entity, context());
  expect(call.status).toBe('succeeded');
  return call.output!;
}

const ids = (output: ToolOutput) => output.findings.map((f) => f.finding_id);

describe('look-alike measures', () => {
  it('maps confusable characters to one skeleton', () => {
    expect(skeleton('раypal')).toBe('paypal'); // Cyrillic р and а
    expect(skeleton('аррӏе')).toBe('apple'); // all Cyrillic
    expect(skeleton('paypa1')).toBe('paypal');
    expect(skeleton('rnicrosoft')).toBe('microsoft');
    expect(skeleton('g00gle')).toBe('google');
    expect(skeleton('pàypal')).toBe('paypal'); // diacritics stripped
  });

  it('counts edits with adjacent transpositions as one', () => {
    expect(editDistance('paypal', 'paypal')).toBe(0);
    expect(editDistance('paypal', 'paypall')).toBe(1);
    expect(editDistance('paypal', 'papyal')).toBe(1);
    expect(editDistance('netflix', 'netfiix')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('detects scripts and entropy', () => {
    expect([...scriptsOf('раypal')].sort()).toEqual(['cyrillic', 'latin']);
    expect([...scriptsOf('paypal-123')]).toEqual(['latin']);
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });

  it('ships a list of about sixty brands, each owning its domains', () => {
    expect(BRANDS.length).toBeGreaterThanOrEqual(55);
    for (const brand of BRANDS) {
      expect(brand.domains.length).toBeGreaterThan(0);
      for (const domain of brand.domains) {
        expect(normaliseEntity({ type: 'domain', value: domain }).value).toBe(domain);
      }
      for (const word of brand.commonWords ?? []) expect(brand.keywords).toContain(word);
    }
  });
});

describe('domain_analysis: brand impersonation', () => {
  it.each([
    ['раypal.com', 'homograph', 90],
    ['xn--pypal-4ve.com', 'homograph', 90],
    ['xn--80ak6aa92e.com', 'homograph', 90],
    ['paypa1.com', 'confusable_spelling', 75],
    ['rnicrosoft.com', 'confusable_spelling', 75],
    ['micros0ft-online.com', 'confusable_spelling', 75],
    ['paypall.com', 'typosquat', 65],
    ['netfiix.com', 'typosquat', 65],
    ['blnance.com', 'typosquat', 65],
    ['paypal-secure-login.com', 'combosquat', 55],
    ['apple-id-verify.com', 'combosquat', 55],
    ['dhl-tracking.com', 'combosquat', 55],
    ['paypal.com.account-check.xyz', 'brand_in_subdomain', 40],
    ['paypal.co', 'brand_other_tld', 25],
  ])('%s → %s (%i)', (domain, technique, score) => {
    const [best] = brandMatches(normaliseEntity(domain).value);
    expect(best).toMatchObject({ technique, score });
  });

  it('raises a critical homograph finding for раypal.com and names the brand domain', async () => {
    const output = await analyse('раypal.com');
    const finding = output.findings.find((f) => f.category === 'impersonation')!;
    expect(finding).toMatchObject({
      finding_id: 'domain_analysis:homograph:paypal.com',
      severity: 'critical',
      score: 90,
    });
    expect(finding.evidence).toEqual(['xn--ypal-43d9g.com', 'раypal.com', 'paypal.com']);
    expect(finding.impact).toMatch(/imitates PayPal/);
    expect(output.related).toContainEqual({
      entity: { type: 'domain', value: 'paypal.com' },
      relationship: 'impersonates',
      evidence: [],
    });
    expect(output.facts).toMatchObject({ is_idn: true, unicode: 'раypal.com', label: 'xn--ypal-43d9g' });
    // The homograph finding already says it; no separate mixed-script finding.
    expect(ids(output)).not.toContain('domain_analysis:mixed_scripts');
  });

  it('does not flag the brands themselves or their subdomains', async () => {
    for (const domain of ['paypal.com', 'login.microsoftonline.com', 'www.amazon.co.uk', 'mail.google.com']) {
      expect(brandMatches(domain)).toEqual([]);
    }
    const output = await analyse('login.microsoftonline.com');
    expect(output.findings.every((f) => f.score === 0)).toBe(true);
    expect(ids(output)).toContain('domain_analysis:known_brand_domain');
    expect(output.facts.brand_owner).toBe('Microsoft');
  });

  it.each([
    'looking.com',
    'finance.com',
    'email.com',
    'cloud-login.com',
    'visa-application.com',
    'apple.recipes.com',
    'example.com',
    'wikipedia.org',
    'münchen.de',
  ])('does not call the ordinary domain %s an impersonation', (domain) => {
    expect(brandMatches(normaliseEntity(domain).value)).toEqual([]);
  });
});

describe('domain_analysis: structure', () => {
  it('flags frequently abused TLDs', async () => {
    const output = await analyse('invoice-portal.zip');
    expect(output.findings).toContainEqual(
      expect.objectContaining({ finding_id: 'domain_analysis:suspicious_tld', score: 20, severity: 'low' }),
    );
    expect(output.facts).toMatchObject({ tld: 'zip', suspicious_tld: true });
  });

  it('flags algorithmically generated labels but not ordinary long ones', async () => {
    const dga = await analyse('xj4k9q2mzp7rwt.net');
    expect(ids(dga)).toContain('domain_analysis:algorithmic_label');
    expect(dga.facts.label_entropy).toBeGreaterThanOrEqual(3.5);
    const ordinary = await analyse('internationalbusiness.com');
    expect(ids(ordinary)).not.toContain('domain_analysis:algorithmic_label');
  });

  it('reports the registrable domain, depth and a subdomain_of link', async () => {
    const output = await analyse('a.b.c.d.evil-example.co.uk');
    expect(output.facts).toMatchObject({
      registrable_domain: 'evil-example.co.uk',
      public_suffix: 'co.uk',
      subdomain: 'a.b.c.d',
      subdomain_depth: 4,
    });
    expect(ids(output)).toContain('domain_analysis:deep_subdomain');
    expect(output.related).toContainEqual({
      entity: { type: 'domain', value: 'evil-example.co.uk' },
      relationship: 'subdomain_of',
      evidence: [],
    });
  });

  it('flags mixed scripts that imitate no listed brand', async () => {
    const output = await analyse('gооdsite.com'); // Cyrillic о о
    expect(ids(output)).toContain('domain_analysis:mixed_scripts');
  });

  it('notes a single-script IDN at low weight only', async () => {
    const output = await analyse('münchen.de');
    expect(output.findings).toEqual([
      expect.objectContaining({ finding_id: 'domain_analysis:internationalised_name', score: 10 }),
    ]);
  });

  it('says so when nothing is wrong with the name', async () => {
    const output = await analyse('example.com');
    expect(ids(output)).toEqual(['domain_analysis:no_structural_indicators']);
  });

  it('caps brand findings at three, strongest first', async () => {
    const output = await analyse('paypal-amazon-apple-netflix-login.com');
    const brands = output.findings.filter((f) => f.category === 'impersonation');
    expect(brands.length).toBe(3);
    expect(brands.map((f) => f.score)).toEqual([...brands.map((f) => f.score)].sort((a, b) => b - a));
  });
});
