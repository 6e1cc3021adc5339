import { stringify } from 'yaml';
import { type ManifestOptions, securityCopilotManifestContent } from './plugin-manifests';

/**
 * The Security Copilot manifest as served (YAML). A module of its own because `yaml` (112 KB,
 * evaluated at import) belongs only in the function that serves YAML, while plugin-manifests.ts is
 * imported by the route table's meta rows and so by health and every meta function.
 */
export function securityCopilotManifest(options: ManifestOptions): string {
  return stringify(securityCopilotManifestContent(options));
}
