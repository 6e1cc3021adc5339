import { writeSettingsTable } from '../infra/settings/docs-table';

// Writes docs/deploy.md's settings table from infra/settings/declaration.ts (npm run docs:settings).
writeSettingsTable(process.cwd());
