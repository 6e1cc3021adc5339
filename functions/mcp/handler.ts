import { httpHandler } from '../../shared/api/http-handler';
import { requestFromEvent, resultFromResponse } from '../../shared/api/mcp/proxy-event';
import { mcpEndpoint } from '../../shared/api/mcp/server';
import * as routes from '../../shared/api/routes/mcp';
import { config } from '../../shared/config';
import { mcpToolCalls } from './tool-calls';

const endpoint = mcpEndpoint(mcpToolCalls, { allowedOrigins: [new URL(config().SIS_PUBLIC_URL).origin] });

/**
 * POST /api/v1/mcp: the MCP SDK reads the JSON-RPC body (the route declares no body schema, so the
 * wrapper leaves it unparsed), the caller comes from the authorizer as on every route.
 */
export const handler = httpHandler(routes.mcp, async ({ event, caller, requestId, context }) =>
  resultFromResponse(
    await endpoint(requestFromEvent(event), {
      caller,
      requestId,
      remainingTimeMs: context?.getRemainingTimeInMillis?.(),
    }),
  ),
);
