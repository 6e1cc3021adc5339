import path from 'node:path';
import { buildOfflineData } from '../shared/platform/offline-intel-build';

/**
 * `tsx scripts/build-offline-data.ts <dir>`: writes the offline enrichment data (IP → ASN/country,
 * mail-provider lists) into <dir>. CDK runs it after bundling the run-tool function, so the data
 * ships in that function's asset only (see docs/investigations.md).
 */
const [dir] = process.argv.slice(2);
if (!dir) {
  console.error('usage: tsx scripts/build-offline-data.ts <output directory>');
  process.exit(2);
}
const meta = buildOfflineData(path.resolve(dir));
console.log(`offline data of ${meta.ip_data_date} (IP) and ${meta.mail_data_date} (mail lists) in ${dir}`);
