import type * as z from '../zod';
import { ListConnectorsResponse } from './schemas/connectors';
import {
  AuditResponse,
  ConsoleConfigResponse,
  ConsoleIncidentResponse,
  ConsoleMeResponse,
  ConsoleSessionsResponse,
  ConsoleStartResponse,
} from './schemas/console-responses';
import { ListFeedsResponse } from './schemas/feeds';
import { GraphResponse } from './schemas/graph';
import { IngestIncidentsResponse, ListIncidentsResponse } from './schemas/incidents';
import { InvestigationBatchResponse, StartInvestigationBatchResponse } from './schemas/investigation-request';
import {
  CancelInvestigationResponse,
  InvestigationReportResponse,
  SessionHistoryResponse,
  StartInvestigationAcceptedResponse,
  StartInvestigationResultResponse,
  StixBundle,
} from './schemas/investigations';
import {
  ApiKeySummary,
  CreateApiKeyResponse,
  ListApiKeysResponse,
  RotateApiKeyResponse,
} from './schemas/keys';
import { AiPluginManifest, HealthResponse, OpenApiDocument } from './schemas/meta';
import { ListSessionsResponse, SearchResponse } from './schemas/search';
import {
  AllowlistEntry,
  CriticalAsset,
  DoNotShareMark,
  ListAllowlistResponse,
  ListCriticalAssetsResponse,
  ListDoNotShareResponse,
  SessionFeedback,
} from './schemas/tenant-knowledge';
import {
  CreateWebhookResponse,
  ListWebhooksResponse,
  RotateWebhookSecretResponse,
  WebhookDeliveriesResponse,
} from './schemas/webhooks/webhook-schemas';

/**
 * Every success-response schema, by the name a route row gives it (`schema: 'SessionHistoryResponse'`).
 * Route rows name their response schema instead of importing it: every handler imports its route row,
 * and a referenced schema is built at the function's cold start although only the OpenAPI
 * documents (openapi.ts) and tests read it. Route rows see this module through a type-only import, so
 * only the code that resolves a name loads the schemas.
 */
export const RESPONSE_SCHEMAS = {
  HealthResponse,
  OpenApiDocument,
  AiPluginManifest,
  StartInvestigationResultResponse,
  StartInvestigationAcceptedResponse,
  SessionHistoryResponse,
  CancelInvestigationResponse,
  InvestigationReportResponse,
  StixBundle,
  GraphResponse,
  ListIncidentsResponse,
  IngestIncidentsResponse,
  SearchResponse,
  ListSessionsResponse,
  CreateApiKeyResponse,
  ListApiKeysResponse,
  RotateApiKeyResponse,
  ApiKeySummary,
  ListConnectorsResponse,
  ListFeedsResponse,
  ConsoleConfigResponse,
  ConsoleMeResponse,
  ConsoleSessionsResponse,
  ConsoleStartResponse,
  ConsoleIncidentResponse,
  AuditResponse,
  AllowlistEntry,
  ListAllowlistResponse,
  SessionFeedback,
  StartInvestigationBatchResponse,
  InvestigationBatchResponse,
  CreateWebhookResponse,
  ListWebhooksResponse,
  RotateWebhookSecretResponse,
  WebhookDeliveriesResponse,
  DoNotShareMark,
  ListDoNotShareResponse,
  CriticalAsset,
  ListCriticalAssetsResponse,
} satisfies Record<string, z.core.$ZodType>;

export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;

/** What each response schema name resolves to. */
export type ResponseSchemas = Readonly<Record<ResponseSchemaName, z.core.$ZodType>>;
