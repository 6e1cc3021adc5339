import { localDataDir } from '../../shared/platform/offline-intel-build';

/**
 * Builds the offline enrichment data (node_modules/.cache/sis-offline-data) once before the test
 * processes start, instead of every worker that investigates an IP building it on its own.
 */
export default function setup(): void {
  localDataDir();
}
