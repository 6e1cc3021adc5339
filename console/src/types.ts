import type { components, operations } from './generated/api';

/**
 * The shapes the pages use, named from the console's generated API types (console/src/generated,
 * `npm run console:api-types`), so a changed response schema breaks the console's type check. Values
 * (terminal statuses, defaults) come from shared/domain or the generated defaults, never a copy.
 */
type Schemas = components['schemas'];

type SuccessOf<R> = R extends { 200: infer A }
  ? A
  : R extends { 201: infer A }
    ? A
    : R extends { 202: infer A }
      ? A
      : never;

/** The JSON body of an operation's success answer: `Answer<'listConsoleSessions'>`. */
export type Answer<Op extends keyof operations> =
  SuccessOf<operations[Op]['responses']> extends { content: { 'application/json': infer Body } }
    ? Body
    : never;

export type EntityType = Schemas['EntityType'];
export type Entity = Schemas['Entity'];
export type SessionStatus = Schemas['SessionStatus'];

export type Me = Answer<'getConsoleMe'>;

export type SessionsAnswer = Answer<'listConsoleSessions'>;
export type SessionListItem = SessionsAnswer['results'][number];
export type Started = Answer<'startConsoleInvestigation'>;

export type SessionHistory = Answer<'getConsoleSessionHistory'>;
export type SessionSummary = SessionHistory['session'];
export type HistoryMessage = Schemas['HistoryMessage'];
export type HistoryEvent = Schemas['HistoryEvent'];
export type ToolCall = Schemas['ToolCall'];

export type ReportResponse = Answer<'getConsoleReport'>;
export type Report = NonNullable<ReportResponse['report']>;
export type ReportEntity = Schemas['ReportEntity'];
export type Finding = Schemas['Finding'];
export type ScoreExplanation = Schemas['ScoreExplanation'];

export type IncidentsAnswer = Answer<'listConsoleIncidents'>;
export type IncidentSummary = Schemas['IncidentSummary'];
export type Incident = Answer<'getConsoleIncident'>;

export type GraphAnswer = Answer<'queryConsoleGraph'>;
export type GraphNeighbor = Schemas['GraphNeighbor'];

export type ApiKey = Schemas['ApiKeySummary'];
export type KeysAnswer = Answer<'listConsoleKeys'>;
export type CreatedKey = Answer<'createConsoleKey'>;
export type RotatedKey = Answer<'rotateConsoleKey'>;

export type AuditAnswer = Answer<'listConsoleAudit'>;
export type AuditEntry = AuditAnswer['entries'][number];

export type AllowlistAnswer = Answer<'listConsoleAllowlist'>;
export type AllowlistEntry = AllowlistAnswer['entries'][number];
export type AllowlistType = Schemas['AllowlistType'];
export type SessionFeedback = Answer<'submitConsoleFeedback'>;
export type FeedsAnswer = Answer<'listConsoleFeeds'>;
export type Feed = FeedsAnswer['feeds'][number];
export type ConnectorsAnswer = Answer<'listConsoleConnectors'>;
export type Connector = ConnectorsAnswer['connectors'][number];
export type DoNotShareAnswer = Answer<'listConsoleDoNotShare'>;
export type DoNotShareMark = DoNotShareAnswer['marks'][number];
export type WebhooksAnswer = Answer<'listConsoleWebhooks'>;
export type Webhook = WebhooksAnswer['webhooks'][number];
export type WebhookEvent = Schemas['WebhookEvent'];
export type CreatedWebhook = Answer<'createConsoleWebhook'>;
export type RotatedWebhookSecret = Answer<'rotateConsoleWebhookSecret'>;
export type WebhookDelivery = Answer<'listConsoleWebhookDeliveries'>['deliveries'][number];
export type CriticalAssetsAnswer = Answer<'listConsoleCriticalAssets'>;
export type CriticalAsset = CriticalAssetsAnswer['assets'][number];
export type CriticalAssetType = Schemas['CriticalAssetType'];
export type Criticality = Schemas['Criticality'];
