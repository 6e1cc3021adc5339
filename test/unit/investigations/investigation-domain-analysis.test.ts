import { describe, expect, it } from 'vitest';
import { normaliseEntity } from '../../../shared/domain/core/entity-normalisation';
import { riskScore, runToolByName, type ToolOutput } from '../../../shared/domain/investigation';
import { BRAND_SECTORS, parseBrandCatalogue } from '../../../shared/domain/names/brand-catalogue';
import { editDistance, scriptsOf, shannonEntropy } from '../../../shared/domain/names/lookalike';
import { segment } from '../../../shared/domain/names/segmentation';
import { openOfflineIntel } from '../../../shared/platform/offline-intel';
import { localDataDir } from '../../../shared/platform/offline-intel-build';
import { context } from './investigation-test-data';

const offline = openOfflineIntel(localDataDir());
const names = offline.names();

async function analyse(value: string, withData = true): Promise<ToolOutput> {
  const entity = normaliseEntity({ type: 'domain', value });
  const call = await runToolByName('domain_analysis', entity, context({}, withData ? { offline } : {}));
  expect(call.status).toBe('succeeded');
  return call.output!;
}

const ids = (output: ToolOutput) => output.findings.map((f) => f.finding_id);
const best = (output: ToolOutput) =>
  output.findings.filter((f) => f.category === 'impersonation').sort((a, b) => b.score - a.score)[0];

describe('name data: Unicode confusables, word list, brand catalogue', () => {
  it('maps confusable characters to one UTS #39 skeleton', () => {
    expect(names.skeleton('раypal')).toBe('paypal'); // Cyrillic р and а
    expect(names.skeleton('ѕсоре')).toBe('scope'); // all Cyrillic
    expect(names.skeleton('paypa1')).toBe('paypal');
    expect(names.skeleton('rnicrosoft')).toBe(names.skeleton('microsoft'));
    expect(names.skeleton('g00gle')).toBe('google');
    expect(names.skeleton('pàypal')).toBe('paypal'); // diacritics dropped
    expect(names.skeleton('ethervvallet')).toBe('etherwallet');
  });

  it('counts edits with adjacent transpositions as one, and measures scripts and entropy', () => {
    expect(editDistance('paypal', 'papyal')).toBe(1);
    expect(editDistance('netflix', 'netfiix')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect([...scriptsOf('раypal')].sort()).toEqual(['cyrillic', 'latin']);
    expect(shannonEntropy('abcd')).toBe(2);
  });

  it('segments dictionary names into words and leaves random ones unexplained', () => {
    expect(segment('medicalnewstoday', names.words).pieces).toEqual(['medical', 'news', 'today']);
    expect(segment('networkadvertising', names.words).explained).toBe(1);
    expect(segment('privacyshield', names.words).words).toEqual(['privacy', 'shield']);
    expect(segment('xj4k9q2mzp7rwt', names.words).explained).toBeLessThan(0.3);
    // Brand keywords are single pieces (dropbox, not drop · box).
    expect(segment('dropboxlogin', names.words, names.byKeyword).pieces).toEqual(['dropbox', 'login']);
  });

  it('ships a catalogue of 300+ brands over every sector, each owning its domains', () => {
    expect(names.brands.length).toBeGreaterThanOrEqual(300);
    expect(new Set(names.brands.map((b) => b.sector))).toEqual(new Set(BRAND_SECTORS));
    for (const brand of names.brands) {
      for (const domain of brand.domains)
        expect(normaliseEntity({ type: 'domain', value: domain }).value).toBe(domain);
    }
    expect(names.ownerOf('googleblog.com', 'googleblog.com')?.name).toBe('Google');
    // A customer's site on a brand's hosting platform is not the brand.
    expect(names.ownerOf('evil.blogspot.com', 'evil.blogspot.com')).toBeUndefined();
  });

  it('refuses a malformed catalogue line, naming it', () => {
    expect(() => parseBrandCatalogue('# c\nAcme\tbank\tacme.com\nBad\tnowhere\tbad.com\n')).toThrow(
      /line 3: unknown sector "nowhere"/,
    );
    expect(() => parseBrandCatalogue('Acme\tbank\tnot a domain')).toThrow(/bad domain/);
  });
});

describe('domain_analysis: brand impersonation', () => {
  it.each([
    ['раypal.com', 'homograph', 90],
    ['xn--pypal-4ve.com', 'homograph', 90],
    ['paypa1.com', 'confusable_spelling', 75],
    ['rnicrosoft.com', 'confusable_spelling', 75],
    ['paypall.com', 'typosquat', 65],
    ['blnance.com', 'typosquat', 65],
    ['myetherwalfet.com', 'typosquat', 65],
    ['paypal-secure-login.com', 'combosquat', 65],
    ['apple-id-verify.com', 'combosquat', 55],
    ['coinbaseairdrop.com', 'combosquat', 55],
    ['trezor-wallet-connect.io', 'combosquat', 65],
    ['paypal.com.account-check.xyz', 'brand_domain_in_subdomain', 55],
    ['ledger.com1829582.info', 'brand_domain_in_subdomain', 55],
    ['metamask.example-host.net', 'brand_in_subdomain', 40],
    ['metamask.github.io', 'brand_other_tld', 30],
  ])('%s → %s (%i)', async (domain, technique, score) => {
    const finding = best(await analyse(domain));
    expect(finding?.finding_id).toMatch(new RegExp(`^domain_analysis:${technique}:`));
    expect(finding?.score).toBe(score);
  });

  it('raises a critical homograph finding for раypal.com and names the brand domain', async () => {
    const output = await analyse('раypal.com');
    expect(best(output)).toMatchObject({
      finding_id: 'domain_analysis:homograph:paypal.com',
      severity: 'critical',
    });
    expect(output.related).toContainEqual({
      entity: { type: 'domain', value: 'paypal.com' },
      relationship: 'impersonates',
      evidence: [],
    });
    expect(ids(output)).not.toContain('domain_analysis:mixed_scripts');
  });

  it('marks a brand-owned domain as positive benign evidence with its source', async () => {
    const output = await analyse('login.microsoftonline.com');
    expect(output.findings).toEqual([
      expect.objectContaining({
        finding_id: 'domain_analysis:known_brand_domain',
        score: 0,
        benign: true,
        evidence_source: 'offline:domain-analysis',
      }),
    ]);
    expect(output.facts.brand_owner).toBe('Microsoft');
  });

  it.each([
    'mail.ru',
    'googleblog.com',
    'medicalnewstoday.com',
    'networkadvertising.org',
    'privacyshield.gov',
    'google.de',
    'amazon.in',
    'yahoo.co.jp',
    'looking.com',
    'finance.com',
    'email.com',
    'apple.recipes.com',
    'münchen.de',
    'example.com',
  ])('does not flag the ordinary or owned domain %s', async (domain) => {
    const output = await analyse(domain);
    expect(riskScore(output.findings)).toBeLessThan(30);
    expect(output.findings.filter((f) => f.category === 'impersonation')).toEqual([]);
    expect(ids(output)).not.toContain('domain_analysis:algorithmic_label');
  });

  it('scores a hyphenated name no lower than the run-together one', async () => {
    const hyphen = riskScore((await analyse('binance-ether.club')).findings);
    const joined = riskScore((await analyse('binanceether.club')).findings);
    expect(joined).toBeGreaterThanOrEqual(30);
    expect(hyphen).toBeGreaterThanOrEqual(joined);
  });

  it('flags a punycode look-alike of a name no brand in the catalogue has', async () => {
    const output = await analyse('ѕсоре.com'); // all Cyrillic, reads "scope"
    expect(output.findings).toContainEqual(
      expect.objectContaining({ finding_id: 'domain_analysis:latin_lookalike', score: 50 }),
    );
    expect(riskScore(output.findings)).toBeGreaterThanOrEqual(30);
  });

  it('adds up weak signals: abused ending, punycode and a lure word', async () => {
    const output = await analyse('grätis-claim.xyz');
    const scores = Object.fromEntries(output.findings.map((f) => [f.finding_id, f.score]));
    expect(scores).toMatchObject({
      'domain_analysis:internationalised_name': 20,
      'domain_analysis:suspicious_tld': 20,
      'domain_analysis:lure_words': 15,
    });
    expect(Math.max(...Object.values(scores))).toBeLessThan(30);
    expect(riskScore(output.findings)).toBeGreaterThanOrEqual(30);
  });

  it('reads crypto giveaway names: a coin with a lure or an amount', async () => {
    for (const domain of [
      '5000eth-giveaway.com',
      'claimether.com',
      'xrp-giveaway.blogspot.com',
      '10keth.com',
    ]) {
      expect(riskScore((await analyse(domain)).findings), domain).toBeGreaterThanOrEqual(30);
    }
  });

  it('caps brand findings at three, strongest first', async () => {
    const output = await analyse('paypal-amazon-netflix-coinbase-login.com');
    const brands = output.findings.filter((f) => f.category === 'impersonation');
    expect(brands.length).toBe(3);
    expect(brands.map((f) => f.score)).toEqual([...brands.map((f) => f.score)].sort((a, b) => b - a));
  });

  it('says so when the name data is missing, and still checks the structure', async () => {
    const output = await analyse('a.b.c.d.paypa1.zip', false);
    expect(ids(output)).toEqual(['domain_analysis:name_data_unavailable', 'domain_analysis:deep_subdomain']);
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

  it('flags algorithmically generated labels but not dictionary ones', async () => {
    const dga = await analyse('xj4k9q2mzp7rwt.net');
    expect(ids(dga)).toContain('domain_analysis:algorithmic_label');
    const ordinary = await analyse('internationalbusinessmachines.com');
    expect(ids(ordinary)).not.toContain('domain_analysis:algorithmic_label');
    expect(ordinary.facts.label_word_share).toBe(1);
  });

  it('reports the registrable domain, depth and a subdomain_of link', async () => {
    const output = await analyse('a.b.c.d.evil-example.co.uk');
    expect(output.facts).toMatchObject({
      registrable_domain: 'evil-example.co.uk',
      subdomain: 'a.b.c.d',
      subdomain_depth: 4,
    });
    expect(ids(output)).toContain('domain_analysis:deep_subdomain');
  });

  it('flags mixed scripts that read as no Latin name', async () => {
    const output = await analyse('gооdsiteфф.com'); // Cyrillic о о and ф
    expect(ids(output)).toContain('domain_analysis:mixed_scripts');
  });

  it('notes a single-script IDN under a country ending at low weight only', async () => {
    const output = await analyse('münchen.de');
    expect(output.findings).toEqual([
      expect.objectContaining({ finding_id: 'domain_analysis:internationalised_name', score: 10 }),
    ]);
  });

  it('says so when nothing is wrong with the name', async () => {
    expect(ids(await analyse('bluebirdcafe.org'))).toEqual(['domain_analysis:no_structural_indicators']);
  });
});
