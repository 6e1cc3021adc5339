import { defineRoute } from '../route-types';
import { SessionParams } from '../schemas/investigations';
import {
  AddAllowlistEntryRequest,
  AddCriticalAssetRequest,
  AllowlistEntryParams,
  CriticalAssetParams,
  DoNotShareParams,
  MarkDoNotShareRequest,
  SessionFeedbackRequest,
} from '../schemas/tenant-knowledge';
import { consoleAdmin, consoleAnalyst, consoleTags } from './console-twin';

/**
 * The tenant's own knowledge (docs/tenant-knowledge.md): the allowlist (admin keys; console admins)
 * and analysts' feedback on a completed session (admin keys, any session of the tenant; console
 * analysts and admins). Later investigations quote both in a finding. Each console route shares its
 * API twin's function (http-handler.ts twinRouteHandler): the stack's resource count stays under
 * CloudFormation's 500.
 */

const ALLOWLIST_EFFECT =
  'An allowlisted entity’s later investigations end benign with a finding quoting the entry (who, when, reason); its other findings are still reported.';

export const addAllowlistEntry = /* @__PURE__ */ defineRoute({
  operationId: 'addAllowlistEntry',
  method: 'POST',
  path: '/api/v1/admin/allowlist',
  access: { kind: 'admin' },
  functionName: 'add-allowlist-entry',
  summary: 'Add an entity or network to the allowlist',
  description: `Trusts an IP address, a CIDR network (at most /8 for IPv4, /32 for IPv6), a domain with all its subdomains, a user or a host, with the reason and an optional expiry (expires_in_days). ${ALLOWLIST_EFFECT} The same type and value twice is a 409. Audited.`,
  tags: ['admin'],
  request: { body: AddAllowlistEntryRequest },
  responses: { 201: { description: 'The entry was added', schema: 'AllowlistEntry' } },
  errorStatuses: [409],
});

export const listAllowlist = /* @__PURE__ */ defineRoute({
  operationId: 'listAllowlist',
  method: 'GET',
  path: '/api/v1/admin/allowlist',
  access: { kind: 'admin' },
  functionName: 'list-allowlist',
  summary: 'List the allowlist',
  description:
    'Every allowlist entry, newest first; expired ones (no longer applied) are flagged until removed.',
  tags: ['admin'],
  request: {},
  responses: { 200: { description: 'The entries', schema: 'ListAllowlistResponse' } },
});

export const removeAllowlistEntry = /* @__PURE__ */ defineRoute({
  operationId: 'removeAllowlistEntry',
  method: 'DELETE',
  path: '/api/v1/admin/allowlist/{entry_id}',
  access: { kind: 'admin' },
  functionName: 'remove-allowlist-entry',
  summary: 'Remove an allowlist entry',
  description: 'Removes the entry (204); later investigations no longer apply it. Audited.',
  tags: ['admin'],
  request: { params: AllowlistEntryParams },
  responses: { 204: { description: 'The entry was removed' } },
  errorStatuses: [404],
});

export const submitSessionFeedback = /* @__PURE__ */ defineRoute({
  operationId: 'submitSessionFeedback',
  method: 'POST',
  path: '/api/v1/sessions/{session_id}/feedback',
  access: { kind: 'admin' },
  functionName: 'submit-session-feedback',
  summary: 'Review the verdict of a completed investigation',
  description:
    "A reviewer (admin key) marks a completed session of any key of the tenant a true_positive or a false_positive, with a required reason (comment) and an optional expiry (expires_in_days). Every review is kept. Later investigations of the same entity carry a finding citing the review that decides (who, when, reason): an admin's false positive makes them benign, a true positive counts as confirmed evidence; a console analyst's false positive awaits an admin's approval (a false_positive review with `approves`: its review_id) and meanwhile never outweighs feed or intel evidence or a confirmation. The reviewed session's verdict and risk are answered only to a caller that may read that session (else session_withheld). 404 for an unknown session or approved review, 409 while it runs. Audited.",
  tags: ['admin'],
  request: { params: SessionParams, body: SessionFeedbackRequest },
  responses: { 201: { description: 'The feedback was recorded', schema: 'SessionFeedback' } },
  errorStatuses: [404, 409],
});

export const addConsoleAllowlistEntry = /* @__PURE__ */ defineRoute({
  operationId: 'addConsoleAllowlistEntry',
  method: 'POST',
  path: '/api/v1/console/admin/allowlist',
  access: consoleAdmin,
  functionName: 'add-allowlist-entry',
  summary: 'Add an allowlist entry (console admins)',
  description: 'The same as addAllowlistEntry; the entry and the audit name the signed-in person.',
  tags: consoleTags,
  request: { body: AddAllowlistEntryRequest },
  responses: { 201: { description: 'The entry was added', schema: 'AllowlistEntry' } },
  errorStatuses: [409],
});

export const listConsoleAllowlist = /* @__PURE__ */ defineRoute({
  operationId: 'listConsoleAllowlist',
  method: 'GET',
  path: '/api/v1/console/admin/allowlist',
  access: consoleAdmin,
  functionName: 'list-allowlist',
  summary: 'List the allowlist (console admins)',
  description: 'The same as listAllowlist.',
  tags: consoleTags,
  request: {},
  responses: { 200: { description: 'The entries', schema: 'ListAllowlistResponse' } },
});

export const removeConsoleAllowlistEntry = /* @__PURE__ */ defineRoute({
  operationId: 'removeConsoleAllowlistEntry',
  method: 'DELETE',
  path: '/api/v1/console/admin/allowlist/{entry_id}',
  access: consoleAdmin,
  functionName: 'remove-allowlist-entry',
  summary: 'Remove an allowlist entry (console admins)',
  description: 'The same as removeAllowlistEntry.',
  tags: consoleTags,
  request: { params: AllowlistEntryParams },
  responses: { 204: { description: 'The entry was removed' } },
  errorStatuses: [404],
});

export const submitConsoleFeedback = /* @__PURE__ */ defineRoute({
  operationId: 'submitConsoleFeedback',
  method: 'POST',
  path: '/api/v1/console/sessions/{session_id}/feedback',
  access: consoleAnalyst,
  functionName: 'submit-session-feedback',
  summary: "Mark any of the tenant's sessions a false positive or confirm it",
  description:
    "The same as submitSessionFeedback, for console analysts and admins; an analyst's false positive awaits an admin's approval, and only an admin may approve (403).",
  tags: consoleTags,
  request: { params: SessionParams, body: SessionFeedbackRequest },
  responses: { 201: { description: 'The feedback was recorded', schema: 'SessionFeedback' } },
  errorStatuses: [403, 404, 409],
});

const DO_NOT_SHARE_EFFECT =
  'A marked entity is never sent to a third-party source (intel lookups skip it: "do not share") and API-key graph answers withhold it (404 saying withheld, and left out of neighbours); console users still see it.';

// The "do not share" rows are served by the allowlist functions (the handler picks the row by path):
// the stack's resource count stays under CloudFormation's 500.
export const markDoNotShare = /* @__PURE__ */ defineRoute({
  operationId: 'markDoNotShare',
  method: 'POST',
  path: '/api/v1/admin/do-not-share',
  access: { kind: 'admin' },
  functionName: 'add-allowlist-entry',
  summary: 'Mark an entity "do not share" tenant-wide',
  description: `An admin's decision, with a required reason, that an entity never leaves the tenant. ${DO_NOT_SHARE_EFFECT} The same entity twice is a 409. Audited.`,
  tags: ['admin'],
  request: { body: MarkDoNotShareRequest },
  responses: { 201: { description: 'The entity was marked', schema: 'DoNotShareMark' } },
  errorStatuses: [409],
});

export const listDoNotShare = /* @__PURE__ */ defineRoute({
  operationId: 'listDoNotShare',
  method: 'GET',
  path: '/api/v1/admin/do-not-share',
  access: { kind: 'admin' },
  functionName: 'list-allowlist',
  summary: 'List the "do not share" marks',
  description: 'Every mark, newest first.',
  tags: ['admin'],
  request: {},
  responses: { 200: { description: 'The marks', schema: 'ListDoNotShareResponse' } },
});

export const lowerDoNotShare = /* @__PURE__ */ defineRoute({
  operationId: 'lowerDoNotShare',
  method: 'DELETE',
  path: '/api/v1/admin/do-not-share/{entity_type}/{value}',
  access: { kind: 'admin' },
  functionName: 'remove-allowlist-entry',
  summary: 'Lower a "do not share" mark',
  description:
    'Removes the mark (204): the entity is shared again as its TLP allows. 404 when it is not marked. Audited.',
  tags: ['admin'],
  request: { params: DoNotShareParams },
  responses: { 204: { description: 'The mark was lowered' } },
  errorStatuses: [404],
});

export const markConsoleDoNotShare = /* @__PURE__ */ defineRoute({
  ...markDoNotShare,
  operationId: 'markConsoleDoNotShare',
  path: '/api/v1/console/admin/do-not-share',
  access: consoleAdmin,
  summary: 'Mark an entity "do not share" tenant-wide (console admins)',
  description: 'The same as markDoNotShare; the mark and the audit name the signed-in person.',
  tags: consoleTags,
});

export const listConsoleDoNotShare = /* @__PURE__ */ defineRoute({
  ...listDoNotShare,
  operationId: 'listConsoleDoNotShare',
  path: '/api/v1/console/admin/do-not-share',
  access: consoleAdmin,
  summary: 'List the "do not share" marks (console admins)',
  description: 'The same as listDoNotShare.',
  tags: consoleTags,
});

export const lowerConsoleDoNotShare = /* @__PURE__ */ defineRoute({
  ...lowerDoNotShare,
  operationId: 'lowerConsoleDoNotShare',
  path: '/api/v1/console/admin/do-not-share/{entity_type}/{value}',
  access: consoleAdmin,
  summary: 'Lower a "do not share" mark (console admins)',
  description: 'The same as lowerDoNotShare.',
  tags: consoleTags,
});

const CRITICAL_ASSET_EFFECT =
  'A later investigation of the host or user names its criticality and owner in a finding, and its recommendations coordinate containment with the owner instead of isolating or disabling it.';

// The critical-asset rows are served by the allowlist functions (the handler picks the row by path):
// the stack's resource count stays under CloudFormation's 500.
export const addCriticalAsset = /* @__PURE__ */ defineRoute({
  operationId: 'addCriticalAsset',
  method: 'POST',
  path: '/api/v1/admin/critical-assets',
  access: { kind: 'admin' },
  functionName: 'add-allowlist-entry',
  summary: 'Declare a host or user a critical asset',
  description: `An admin's declaration, with a criticality (critical or high), an owner and a reason. ${CRITICAL_ASSET_EFFECT} The same entity twice is a 409 (remove it to change it). Audited.`,
  tags: ['admin'],
  request: { body: AddCriticalAssetRequest },
  responses: { 201: { description: 'The asset was added', schema: 'CriticalAsset' } },
  errorStatuses: [409],
});

export const listCriticalAssets = /* @__PURE__ */ defineRoute({
  operationId: 'listCriticalAssets',
  method: 'GET',
  path: '/api/v1/admin/critical-assets',
  access: { kind: 'admin' },
  functionName: 'list-allowlist',
  summary: 'List the critical assets',
  description: 'Every critical host and user, newest first.',
  tags: ['admin'],
  request: {},
  responses: { 200: { description: 'The assets', schema: 'ListCriticalAssetsResponse' } },
});

export const removeCriticalAsset = /* @__PURE__ */ defineRoute({
  operationId: 'removeCriticalAsset',
  method: 'DELETE',
  path: '/api/v1/admin/critical-assets/{entity_type}/{value}',
  access: { kind: 'admin' },
  functionName: 'remove-allowlist-entry',
  summary: 'Remove a critical asset',
  description:
    'Removes the asset (204); later investigations treat it as any host or user. 404 when it is not one. Audited.',
  tags: ['admin'],
  request: { params: CriticalAssetParams },
  responses: { 204: { description: 'The asset was removed' } },
  errorStatuses: [404],
});

export const addConsoleCriticalAsset = /* @__PURE__ */ defineRoute({
  operationId: 'addConsoleCriticalAsset',
  method: 'POST',
  path: '/api/v1/console/admin/critical-assets',
  access: consoleAdmin,
  functionName: 'add-allowlist-entry',
  summary: 'Declare a critical asset (console admins)',
  description: 'The same as addCriticalAsset; the asset and the audit name the signed-in person.',
  tags: consoleTags,
  request: { body: AddCriticalAssetRequest },
  responses: { 201: { description: 'The asset was added', schema: 'CriticalAsset' } },
  errorStatuses: [409],
});

export const listConsoleCriticalAssets = /* @__PURE__ */ defineRoute({
  operationId: 'listConsoleCriticalAssets',
  method: 'GET',
  path: '/api/v1/console/admin/critical-assets',
  access: consoleAdmin,
  functionName: 'list-allowlist',
  summary: 'List the critical assets (console admins)',
  description: 'The same as listCriticalAssets.',
  tags: consoleTags,
  request: {},
  responses: { 200: { description: 'The assets', schema: 'ListCriticalAssetsResponse' } },
});

export const removeConsoleCriticalAsset = /* @__PURE__ */ defineRoute({
  operationId: 'removeConsoleCriticalAsset',
  method: 'DELETE',
  path: '/api/v1/console/admin/critical-assets/{entity_type}/{value}',
  access: consoleAdmin,
  functionName: 'remove-allowlist-entry',
  summary: 'Remove a critical asset (console admins)',
  description: 'The same as removeCriticalAsset.',
  tags: consoleTags,
  request: { params: CriticalAssetParams },
  responses: { 204: { description: 'The asset was removed' } },
  errorStatuses: [404],
});

export const tenantKnowledgeRoutes = [
  addAllowlistEntry,
  listAllowlist,
  removeAllowlistEntry,
  submitSessionFeedback,
  addConsoleAllowlistEntry,
  listConsoleAllowlist,
  removeConsoleAllowlistEntry,
  submitConsoleFeedback,
  markDoNotShare,
  listDoNotShare,
  lowerDoNotShare,
  markConsoleDoNotShare,
  listConsoleDoNotShare,
  lowerConsoleDoNotShare,
  addCriticalAsset,
  listCriticalAssets,
  removeCriticalAsset,
  addConsoleCriticalAsset,
  listConsoleCriticalAssets,
  removeConsoleCriticalAsset,
] as const;
