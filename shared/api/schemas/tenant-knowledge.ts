import { ALLOWLIST_TYPES, MAX_EXPIRY_DAYS, MAX_REASON_LENGTH } from '../../domain/tenant-knowledge/allowlist';
import {
  CRITICAL_ASSET_TYPES,
  CRITICALITIES,
  MAX_OWNER_LENGTH,
} from '../../domain/tenant-knowledge/critical-assets';
import {
  FEEDBACK_VERDICTS,
  MAX_COMMENT_LENGTH,
  MAX_FEEDBACK_EXPIRY_DAYS,
} from '../../domain/tenant-knowledge/feedback';
import * as z from '../../zod';
import { withMeta } from '../../zod';
import { EntityType, IsoDateTime, SessionId } from './common';
import { Verdict } from './search';

/** The tenant's allowlist and analysts' feedback (docs/tenant-knowledge.md). */

export const AllowlistType = /* @__PURE__ */ (() =>
  withMeta(z.enum(ALLOWLIST_TYPES), {
    id: 'AllowlistType',
    description:
      'ip: one address; cidr: a network, at most /8 (IPv4) or /32 (IPv6) wide; domain: the domain and all its subdomains; user; host',
    example: 'domain',
  }))();

export const AddAllowlistEntryRequest = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      type: AllowlistType,
      value: withMeta(z.string().check(z.minLength(1), z.maxLength(256)), {
        description: 'The entity or network, normalised like an investigated entity',
        example: 'contoso-partner.example',
      }),
      reason: withMeta(z.string().check(z.minLength(1), z.maxLength(MAX_REASON_LENGTH)), {
        description: 'Why the tenant trusts it; quoted by every later investigation of a covered entity',
        example: 'Payroll provider, contract 2026-114',
      }),
      expires_in_days: withMeta(z.optional(z.number().check(z.int(), z.gte(1), z.lte(MAX_EXPIRY_DAYS))), {
        description: `Days until the entry lapses (1-${MAX_EXPIRY_DAYS}); without it the entry never expires`,
        example: 90,
      }),
    }),
    { id: 'AddAllowlistEntryRequest' },
  ))();

export const AllowlistEntry = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      entry_id: withMeta(z.string(), {
        description: 'Derived from the type and the normalised value',
        example: 'al_3f1c0a9e5b7d2c4a6e8f0b1d',
      }),
      type: AllowlistType,
      value: withMeta(z.string(), { description: 'Normalised value', example: 'contoso-partner.example' }),
      reason: z.string(),
      created_by: withMeta(z.string(), {
        description: 'Who added it: an admin key ID, or user:<name> for a console admin',
        example: 'user:admin',
      }),
      created_at: IsoDateTime,
      expires_at: withMeta(z.nullable(IsoDateTime), { description: 'null: never expires' }),
      expired: withMeta(z.boolean(), { description: 'Past expires_at: no longer applied' }),
    }),
    { id: 'AllowlistEntry', description: 'An entity or network the tenant trusts' },
  ))();

export const ListAllowlistResponse = /* @__PURE__ */ (() =>
  withMeta(z.object({ entries: z.array(AllowlistEntry) }), { id: 'ListAllowlistResponse' }))();

export const AllowlistEntryParams = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      entry_id: withMeta(z.string().check(z.regex(/^al_[0-9a-f]{24}$/, 'must be an allowlist entry ID')), {
        description: 'entry_id of the allowlist entry',
      }),
    }),
    { id: 'AllowlistEntryParams' },
  ))();

export const SessionFeedbackRequest = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      verdict: withMeta(z.enum(FEEDBACK_VERDICTS), {
        description:
          'true_positive: the entity really is a threat (later investigations count it as confirmed evidence); false_positive: it is not (later investigations end benign, citing this)',
        example: 'false_positive',
      }),
      comment: withMeta(z.string().check(z.maxLength(MAX_COMMENT_LENGTH)), {
        description:
          'The reason (required, no control or invisible characters); quoted by later investigations',
        example: 'Our vulnerability scanner',
      }),
      expires_in_days: withMeta(
        z.optional(z.number().check(z.int(), z.gte(1), z.lte(MAX_FEEDBACK_EXPIRY_DAYS))),
        {
          description: `Days until the review stops counting (1-${MAX_FEEDBACK_EXPIRY_DAYS}); without it, never`,
          example: 90,
        },
      ),
      approves: withMeta(z.optional(z.string().check(z.regex(/^rv_[0-9a-f]{25}$/, 'must be a review ID'))), {
        description:
          "Admins only: the review_id of an analyst's false_positive on this session that this false_positive review approves",
        example: 'rv_17647200000001a2b3c4d5e6f',
      }),
    }),
    { id: 'SessionFeedbackRequest' },
  ))();

export const SessionFeedback = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      session_id: SessionId,
      verdict: z.enum(FEEDBACK_VERDICTS),
      comment: z.string(),
      by: withMeta(z.string(), { description: 'Who gave it', example: 'user:analyst' }),
      at: IsoDateTime,
      session_verdict: withMeta(z.optional(z.nullable(Verdict)), {
        description: "The reviewed session's verdict when the feedback was given",
      }),
      session_risk_score: z.optional(z.nullable(z.number())),
      review_id: withMeta(z.optional(z.string()), { description: 'This review (every review is kept)' }),
      by_role: withMeta(z.optional(z.enum(['admin', 'analyst'])), { description: "The reviewer's role" }),
      expires_at: withMeta(z.optional(z.nullable(IsoDateTime)), { description: 'null: never expires' }),
      approves: withMeta(z.optional(z.string()), { description: 'The analyst review this one approves' }),
      status: withMeta(z.optional(z.enum(['counts', 'awaiting_approval'])), {
        description:
          "counts: later investigations weigh it now; awaiting_approval: an analyst's false_positive that waits for an admin's approval and meanwhile never outweighs feed or intel evidence or a confirmation",
      }),
      session_withheld: withMeta(z.optional(z.literal(true)), {
        description:
          "The reviewed session's verdict and risk were left out: the caller may not read that session (another key's)",
      }),
    }),
    { id: 'SessionFeedback', description: "An analyst's review of a session's verdict" },
  ))();

/** The tenant-wide "do not share" mark (domain/tenant-knowledge/do-not-share.ts). */
export const MarkDoNotShareRequest = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      entity_type: EntityType,
      value: withMeta(z.string().check(z.minLength(1), z.maxLength(256)), {
        description: 'The entity, normalised like an investigated entity',
        example: 'payroll.contoso.example',
      }),
      reason: withMeta(z.string().check(z.minLength(1), z.maxLength(MAX_REASON_LENGTH)), {
        description: 'Why it must never leave the tenant; kept in the audit list',
        example: 'Internal codename, under NDA',
      }),
    }),
    { id: 'MarkDoNotShareRequest' },
  ))();

export const DoNotShareMark = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      entity_type: EntityType,
      value: withMeta(z.string(), { description: 'Normalised value', example: 'payroll.contoso.example' }),
      reason: z.string(),
      marked_by: withMeta(z.string(), {
        description: 'Who marked it: key:<key ID>, or user:<name> for a console admin',
        example: 'key:k_0123456789abcdef',
      }),
      marked_at: IsoDateTime,
    }),
    {
      id: 'DoNotShareMark',
      description: 'An entity never sent to a third party and withheld from API-key graph answers',
    },
  ))();

export const ListDoNotShareResponse = /* @__PURE__ */ (() =>
  withMeta(z.object({ marks: z.array(DoNotShareMark) }), { id: 'ListDoNotShareResponse' }))();

export const DoNotShareParams = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      entity_type: EntityType,
      value: withMeta(z.string().check(z.minLength(1), z.maxLength(256)), {
        description: 'The marked entity (normalised like an investigated entity)',
      }),
    }),
    { id: 'DoNotShareParams' },
  ))();

/** The tenant's critical hosts and users (domain/tenant-knowledge/critical-assets.ts). */
export const CriticalAssetType = /* @__PURE__ */ (() =>
  withMeta(z.enum(CRITICAL_ASSET_TYPES), {
    id: 'CriticalAssetType',
    description: 'A critical asset is a host or a user',
    example: 'host',
  }))();

export const Criticality = /* @__PURE__ */ (() =>
  withMeta(z.enum(CRITICALITIES), {
    id: 'Criticality',
    description:
      'critical: an outage stops the business (domain controllers, payment systems); high: an outage hurts',
    example: 'critical',
  }))();

export const AddCriticalAssetRequest = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      entity_type: CriticalAssetType,
      value: withMeta(z.string().check(z.minLength(1), z.maxLength(256)), {
        description: 'The host or user, normalised like an investigated entity',
        example: 'dc01.corp.contoso.example',
      }),
      criticality: Criticality,
      owner: withMeta(z.string().check(z.minLength(1), z.maxLength(MAX_OWNER_LENGTH)), {
        description: 'Who to coordinate containment with (a team, a person, an on-call rota); one line',
        example: 'Identity team (on-call +1 555 0100)',
      }),
      reason: withMeta(z.string().check(z.minLength(1), z.maxLength(MAX_REASON_LENGTH)), {
        description: 'Why it is critical; quoted by every later investigation of it',
        example: 'Domain controller for corp.contoso.example',
      }),
    }),
    { id: 'AddCriticalAssetRequest' },
  ))();

export const CriticalAsset = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      entity_type: CriticalAssetType,
      value: withMeta(z.string(), { description: 'Normalised value', example: 'dc01.corp.contoso.example' }),
      criticality: Criticality,
      owner: z.string(),
      reason: z.string(),
      added_by: withMeta(z.string(), {
        description: 'Who added it: key:<key ID>, or user:<name> for a console admin',
        example: 'user:admin',
      }),
      added_at: IsoDateTime,
    }),
    {
      id: 'CriticalAsset',
      description:
        'A host or user the tenant declares important: reports coordinate its containment with its owner',
    },
  ))();

export const ListCriticalAssetsResponse = /* @__PURE__ */ (() =>
  withMeta(z.object({ assets: z.array(CriticalAsset) }), { id: 'ListCriticalAssetsResponse' }))();

export const CriticalAssetParams = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      entity_type: CriticalAssetType,
      value: withMeta(z.string().check(z.minLength(1), z.maxLength(256)), {
        description: 'The asset (normalised like an investigated entity)',
      }),
    }),
    { id: 'CriticalAssetParams' },
  ))();
