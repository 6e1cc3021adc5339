import type { McpToolCalls } from '../../shared/api/mcp/server';
import {
  compactGraphNeighborhood,
  compactIncidentList,
  compactInvestigationReport,
  compactInvestigationResult,
  compactSearchResults,
} from '../../shared/api/plugin-responses';
import { GraphQuery } from '../../shared/api/schemas/graph';
import { config } from '../../shared/config';
import {
  doNotShareMarks,
  graphStore,
  queryKnowledgeGraph,
} from '../../shared/services/graph/knowledge-graph';
import { incidentStore, listIncidents } from '../../shared/services/incidents/incidents';
import { getInvestigationReport } from '../../shared/services/investigations/investigation-reads';
import { startInvestigation } from '../../shared/services/investigations/investigations';
import { searchIndex, searchInvestigations } from '../../shared/services/investigations/search';
import { lifecycleContext } from '../../shared/services/sessions/lifecycle-context';
import { sessionContext } from '../../shared/services/sessions/session-context';
import * as z from '../../shared/zod';

// biome-ignore lint/suspicious/noExplicitAny: the SDK has validated the arguments against the tool's zod schema
type Args = Record<string, any>;

/**
 * Each tool runs the service function of its REST twin with the caller from the authorizer, and
 * answers what the twin's handler answers (the same compaction): so scope, ownership, TLP default,
 * quotas and the answer are the REST route's.
 */
export const mcpToolCalls: McpToolCalls = {
  investigate_entity: async (args: Args, { caller, remainingTimeMs }) => {
    const outcome = await startInvestigation(
      lifecycleContext(),
      { ...caller, via: 'mcp' },
      {
        entity: { type: args.type, value: args.value },
        persona: args.persona,
        tlp: args.tlp ?? 'amber',
        background: false,
        include_tool_calls: false,
        include_raw_results: false,
        refresh_intel: false,
      },
      { remainingTimeMs },
    );
    return compactInvestigationResult(outcome.body);
  },
  get_investigation: async (args: Args, { caller }) =>
    compactInvestigationReport(await getInvestigationReport(sessionContext(), caller, args.session_id)),
  query_knowledge_graph: async (args: Args) =>
    compactGraphNeighborhood(
      await queryKnowledgeGraph(graphStore(), {
        value: args.value,
        type: args.type,
        depth: args.depth,
        // The REST route's own default page size.
        limit: z.parse(GraphQuery, {}).limit,
        cursor: undefined,
        hideRed: true,
        doNotShare: doNotShareMarks(),
      }),
    ),
  list_recent_incidents: async (args: Args) =>
    compactIncidentList(
      await listIncidents(incidentStore(), config().SIS_PUBLIC_URL, {
        severity: args.severity as Parameters<typeof listIncidents>[2]['severity'],
        status: undefined,
        since: args.since,
        until: args.until,
        limit: args.limit,
        cursor: undefined,
      }),
    ),
  search_investigations: async (args: Args, { caller }) =>
    compactSearchResults(
      await searchInvestigations(searchIndex(), caller, {
        q: args.q,
        status: undefined,
        verdict: undefined,
        limit: args.limit,
        cursor: undefined,
      }),
    ),
};
