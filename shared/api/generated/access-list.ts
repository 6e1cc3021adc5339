// Generated from the route table (shared/api/routes.ts) by `npm run docs:scopes`; do not edit.
import type { PolicyRoute } from '../../domain/keys/policy';

export const ACCESS_LIST: readonly PolicyRoute[] = [
  {
    method: 'GET',
    paths: ['/health'],
    access: {
      kind: 'public',
    },
  },
  {
    method: 'GET',
    paths: ['/openapi.json'],
    access: {
      kind: 'public',
    },
  },
  {
    method: 'GET',
    paths: ['/plugin/openapi.json'],
    access: {
      kind: 'public',
    },
  },
  {
    method: 'GET',
    paths: ['/.well-known/ai-plugin.json'],
    access: {
      kind: 'public',
    },
  },
  {
    method: 'GET',
    paths: ['/plugin/security-copilot.yaml'],
    access: {
      kind: 'public',
    },
  },
  {
    method: 'GET',
    paths: ['/plugin/logo.svg'],
    access: {
      kind: 'public',
    },
  },
  {
    method: 'GET',
    paths: ['/legal'],
    access: {
      kind: 'public',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/admin/keys'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/admin/keys'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/admin/keys/{key_id}/rotate'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/admin/keys/{key_id}/disable'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'POST',
    paths: [
      '/api/v1/investigations/start',
      '/api/v1/public/investigations/start',
      '/proxy/agent/api/v1/public/investigations/start',
    ],
    access: {
      kind: 'scope',
      scope: 'investigations:write',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/public/sessions/{session_id}', '/proxy/agent/api/v1/public/sessions/{session_id}'],
    access: {
      kind: 'scope',
      scope: 'investigations:read',
    },
  },
  {
    method: 'POST',
    paths: [
      '/api/v1/public/sessions/{session_id}/cancel',
      '/proxy/agent/api/v1/public/sessions/{session_id}/cancel',
    ],
    access: {
      kind: 'scope',
      scope: 'investigations:write',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/sessions/{session_id}'],
    access: {
      kind: 'scope',
      scope: 'investigations:read',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/sessions/{session_id}/stix'],
    access: {
      kind: 'scope',
      scope: 'investigations:read',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/sessions'],
    access: {
      kind: 'scope',
      scope: 'investigations:read',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/graph/entity/{value}'],
    access: {
      kind: 'scope',
      scope: 'graph:read',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/incidents'],
    access: {
      kind: 'scope',
      scope: 'incidents:read',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/incidents/ingest'],
    access: {
      kind: 'scope',
      scope: 'incidents:write',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/search'],
    access: {
      kind: 'scope',
      scope: 'search:read',
    },
  },
  {
    method: 'GET',
    paths: [
      '/sessions',
      '/sessions/{session_id}',
      '/incidents',
      '/incidents/{incident_id}',
      '/graph/{value}',
      '/admin/keys',
      '/admin/audit',
      '/admin/allowlist',
      '/admin/feeds',
      '/admin/connectors',
      '/admin/webhooks',
      '/admin/critical-assets',
      '/auth/callback',
      '/signed-out',
      '/console',
    ],
    access: {
      kind: 'public',
    },
  },
  {
    method: 'GET',
    paths: ['/console/assets/{file}'],
    access: {
      kind: 'public',
    },
  },
  {
    method: 'GET',
    paths: ['/console/config.json'],
    access: {
      kind: 'public',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/me'],
    access: {
      kind: 'console',
      role: 'analyst',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/sessions'],
    access: {
      kind: 'console',
      role: 'analyst',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/console/investigations'],
    access: {
      kind: 'console',
      role: 'analyst',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/sessions/{session_id}'],
    access: {
      kind: 'console',
      role: 'analyst',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/sessions/{session_id}/report'],
    access: {
      kind: 'console',
      role: 'analyst',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/sessions/{session_id}/stix'],
    access: {
      kind: 'console',
      role: 'analyst',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/console/sessions/{session_id}/cancel'],
    access: {
      kind: 'console',
      role: 'analyst',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/incidents'],
    access: {
      kind: 'console',
      role: 'analyst',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/incidents/{incident_id}'],
    access: {
      kind: 'console',
      role: 'analyst',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/graph/entity/{value}'],
    access: {
      kind: 'console',
      role: 'analyst',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/admin/keys'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/console/admin/keys'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/console/admin/keys/{key_id}/rotate'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/console/admin/keys/{key_id}/disable'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/admin/audit'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/admin/connectors'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/connectors'],
    access: {
      kind: 'console',
      role: 'analyst',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/admin/allowlist'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/admin/allowlist'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'DELETE',
    paths: ['/api/v1/admin/allowlist/{entry_id}'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/sessions/{session_id}/feedback'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/console/admin/allowlist'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/admin/allowlist'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'DELETE',
    paths: ['/api/v1/console/admin/allowlist/{entry_id}'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/console/sessions/{session_id}/feedback'],
    access: {
      kind: 'console',
      role: 'analyst',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/admin/do-not-share'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/admin/do-not-share'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'DELETE',
    paths: ['/api/v1/admin/do-not-share/{entity_type}/{value}'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/console/admin/do-not-share'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/admin/do-not-share'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'DELETE',
    paths: ['/api/v1/console/admin/do-not-share/{entity_type}/{value}'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/admin/critical-assets'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/admin/critical-assets'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'DELETE',
    paths: ['/api/v1/admin/critical-assets/{entity_type}/{value}'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/console/admin/critical-assets'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/admin/critical-assets'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'DELETE',
    paths: ['/api/v1/console/admin/critical-assets/{entity_type}/{value}'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/admin/feeds'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/admin/feeds/refresh'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/admin/feeds'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/console/admin/feeds/refresh'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/investigations/batch'],
    access: {
      kind: 'scope',
      scope: 'investigations:write',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/investigations/batch/{batch_id}'],
    access: {
      kind: 'scope',
      scope: 'investigations:read',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/mcp'],
    access: {
      kind: 'key',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/mcp'],
    access: {
      kind: 'key',
    },
  },
  {
    method: 'DELETE',
    paths: ['/api/v1/mcp'],
    access: {
      kind: 'key',
    },
  },
  {
    method: 'GET',
    paths: ['/plugin/security-copilot-mcp.yaml'],
    access: {
      kind: 'public',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/admin/webhooks'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/admin/webhooks'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'DELETE',
    paths: ['/api/v1/admin/webhooks/{webhook_id}'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/admin/webhooks/{webhook_id}/rotate-secret'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/admin/webhooks/{webhook_id}/deliveries'],
    access: {
      kind: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/console/admin/webhooks'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/admin/webhooks'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'DELETE',
    paths: ['/api/v1/console/admin/webhooks/{webhook_id}'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'POST',
    paths: ['/api/v1/console/admin/webhooks/{webhook_id}/rotate-secret'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
  {
    method: 'GET',
    paths: ['/api/v1/console/admin/webhooks/{webhook_id}/deliveries'],
    access: {
      kind: 'console',
      role: 'admin',
    },
  },
];
