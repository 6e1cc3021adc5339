import os from 'node:os';
import { openOfflineIntel } from '../../shared/platform/offline-intel';
import { localDataDir } from '../../shared/platform/offline-intel-build';
import { assembleCorpus, CORPUS_SOURCES } from './corpus';
import {
  flagged,
  formatTable,
  type Judged,
  judge,
  MALICIOUS_CLASSES,
  SAMPLE_CAPS,
  type Split,
  sampleByHash,
  splitOf,
  summarise,
} from './harness';

/**
 * `npm run eval:verdicts [-- --misses N]`: the real domain_analysis tool and scoring on the labelled
 * corpus (corpus.ts), offline, and the detection and false-positive rates per class on each half.
 * `--misses N` lists up to N wrong answers of the TUNING half only: the held-out half is for measuring,
 * never for looking at.
 */
const args = process.argv.slice(2);
const missesAt = args.indexOf('--misses');
// --tuning-only: judge the tuning half alone (twice as fast while tuning).

const misses = missesAt >= 0 ? Number(args[missesAt + 1] ?? 20) : 0;

const started = performance.now();
const offline = openOfflineIntel(localDataDir());
const whole = assembleCorpus();
const corpus = sampleByHash(whole, SAMPLE_CAPS);
const tuningOnly = args.includes('--tuning-only');
const judged: Judged[] = [];
for (const name of corpus) {
  if (tuningOnly && splitOf(name.domain) !== 'tuning') continue;
  judged.push(await judge(name, offline));
}
const seconds = (performance.now() - started) / 1000;

console.log(`# Verdict evaluation (${new Date().toISOString().slice(0, 10)})\n`);
console.log(
  `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}; ${judged.length} names in ${seconds.toFixed(1)} s.`,
);
console.log(
  `Sampled ${corpus.length} of ${whole.length} names (per-class caps ${JSON.stringify(SAMPLE_CAPS)}, by hash).`,
);
console.log(
  `Sources: ${[...new Set(CORPUS_SOURCES.map((s) => `${s.package}@${s.version} (${s.licence})`))].join(', ')}.\n`,
);
for (const split of ['tuning', 'held_out'] as Split[]) {
  const part = judged.filter((j) => splitOf(j.domain) === split);
  console.log(
    formatTable(split === 'tuning' ? 'Tuning half' : 'Held-out half (never tuned on)', summarise(part)),
  );
  console.log('');
}
if (misses > 0) {
  const tuning = judged.filter((j) => splitOf(j.domain) === 'tuning' && j.verdict !== 'invalid');
  const wrong = (j: Judged) => flagged(j.verdict) !== MALICIOUS_CLASSES.includes(j.label);
  for (const label of [...new Set(tuning.map((j) => j.label))]) {
    const all = tuning.filter((j) => j.label === label && wrong(j));
    // An even sample across the alphabet, not its start.
    const step = Math.max(1, Math.floor(all.length / misses));
    const list = all.filter((_, i) => i % step === 0).slice(0, misses);
    console.log(`## Tuning half, ${label}: ${list.length} wrong answers shown`);
    for (const j of list) console.log(`${j.domain}\t${j.verdict} ${j.risk}\t${j.findings.join(' ')}`);
    console.log('');
  }
}
