import { buildTenantApp } from './build-app';
import { SettingsError } from './settings';

try {
  buildTenantApp().app.synth();
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  console.error(error.message);
  process.exit(1);
}
