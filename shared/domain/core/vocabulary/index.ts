/**
 * The vocabulary of an investigation, shared by the tools, the engine, the report, the store (which
 * implements `InvestigationData` and persists `ToolCall`s and events) and the workflow steps.
 * Nothing here knows about AWS.
 */

export type { AllowlistMatch, RiskBasisEntry } from '../evidence-basis';
export type {
  FeedIndex,
  FeedMatch,
  FeedsPort,
  IndicatorDetails,
  IndicatorMeta,
  IndicatorVia,
  LoadedFeed,
  LoadedFeeds,
} from '../feed-port';
export type { IpIntel, MailDomainIntel, OfflineDataSource, OfflineIntel } from '../offline-intel';
export * from './investigation-data';
export * from './report';
export * from './tools-and-findings';
