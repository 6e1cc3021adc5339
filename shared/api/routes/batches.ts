import { defineRoute } from '../route-types';
import { BatchParams, StartInvestigationBatchRequest } from '../schemas/investigation-request';

/** Batches of investigations for playbooks (docs/soar.md, "Batches"). */

export const startInvestigationBatch = /* @__PURE__ */ defineRoute({
  operationId: 'startInvestigationBatch',
  method: 'POST',
  path: '/api/v1/investigations/batch',
  access: { kind: 'scope', scope: 'investigations:write' },
  functionName: 'start-investigation-batch',
  summary: 'Investigate up to 100 entities at once',
  description: `Starts a background investigation of each of 1 to 100 entities (the same entity twice is investigated once) with one persona and TLP, and answers 202 at once with batch_id and, per distinct entity, its session_id and session_url, or the error that kept it from starting (rate_limited when the key's daily quota or running-investigations cap is reached: each entity counts against them as a single start would). A batch with any invalid entity is refused whole (400, each bad entity named) and starts nothing. Follow the batch with getInvestigationBatch: the answer's Location header is its URL and Retry-After the seconds between polls.`,
  tags: ['investigations'],
  request: { body: StartInvestigationBatchRequest },
  responses: {
    202: {
      description: 'The batch runs in the background; poll Location',
      schema: 'StartInvestigationBatchResponse',
      pollHeaders: true,
    },
  },
  // One start per entity: up to 100 session creations and workflow starts.
  timeoutSeconds: 29,
  memoryMb: 512,
});

export const getInvestigationBatch = /* @__PURE__ */ defineRoute({
  operationId: 'getInvestigationBatch',
  method: 'GET',
  path: '/api/v1/investigations/batch/{batch_id}',
  access: { kind: 'scope', scope: 'investigations:read' },
  functionName: 'get-investigation-batch',
  summary: 'Follow a batch of investigations',
  description: `Returns the batch's status (active until every session of the batch has ended, then completed), counts of its sessions by status (entities that were not started are not counted) and each session's status, with its verdict and risk_score once completed. Read each report with getInvestigationReport. Only the API key that started the batch may read it (403 otherwise, 404 for an unknown batch).`,
  tags: ['investigations'],
  request: { params: BatchParams },
  responses: { 200: { description: 'The batch and its sessions', schema: 'InvestigationBatchResponse' } },
});

export const batchRoutes = [startInvestigationBatch, getInvestigationBatch] as const;
