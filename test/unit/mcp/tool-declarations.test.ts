import { describe, expect, it } from 'vitest';
import { mcpToolDefinitions } from '../../../shared/api/mcp/server';
import { MCP_TOOLS } from '../../../shared/api/mcp/tools';
import { RESPONSE_SCHEMAS } from '../../../shared/api/response-schemas';
import type { RouteDefinition } from '../../../shared/api/route-types';

/** Every field schema a route accepts, by name (path, query and body). */
function routeFields(route: RouteDefinition): Map<string, unknown> {
  const fields = new Map<string, unknown>();
  const objects = [route.request.params, route.request.query, route.request.body] as Array<
    { shape?: Record<string, unknown> } | undefined
  >;
  for (const object of objects)
    for (const [name, schema] of Object.entries(object?.shape ?? {})) fields.set(name, schema);
  return fields;
}

/** Fails when a tool's schemas drift from its REST twin's route row. */
describe('MCP tool declarations follow their routes', () => {
  it('are the five tools of the contract', () => {
    expect(MCP_TOOLS.map((t) => t.name)).toEqual([
      'investigate_entity',
      'get_investigation',
      'query_knowledge_graph',
      'list_recent_incidents',
      'search_investigations',
    ]);
  });

  // Fields the contract spells differently from the route (documented in the tool's note).
  const reshaped: Record<string, readonly string[]> = {
    investigate_entity: ['type', 'value', 'tlp'],
    list_recent_incidents: ['severity'],
  };

  it.each(MCP_TOOLS.map((tool) => [tool.name, tool] as const))(
    "%s takes its route's field schemas",
    (name, tool) => {
      const fields = routeFields(tool.route);
      for (const [field, schema] of Object.entries(tool.inputSchema.shape)) {
        if (reshaped[name]?.includes(field)) continue;
        expect(fields.get(field), `${name}.${field}`).toBe(schema);
      }
    },
  );

  it.each(MCP_TOOLS.filter((t) => t.outputSchema).map((tool) => [tool.name, tool] as const))(
    "%s declares its route's 200 response schema as outputSchema",
    (_name, tool) => {
      const schemaName = tool.route.responses[200]?.schema;
      expect(schemaName).toBeDefined();
      expect(tool.outputSchema).toBe(RESPONSE_SCHEMAS[schemaName as keyof typeof RESPONSE_SCHEMAS]);
    },
  );

  it("each tool needs its route's scope and carries its description", () => {
    for (const tool of MCP_TOOLS) {
      expect(tool.route.access.kind).toBe('scope');
      expect(tool.route.description.length).toBeGreaterThan(20);
    }
  });

  it('lists every tool with object-rooted JSON Schemas (the 2025 codec wraps structuredContent otherwise)', () => {
    const definitions = mcpToolDefinitions();
    expect([...definitions.keys()]).toEqual(MCP_TOOLS.map((t) => t.name));
    for (const tool of MCP_TOOLS) {
      const listed = definitions.get(tool.name);
      expect(listed?.inputSchema.type, tool.name).toBe('object');
      expect(listed?.inputSchema.properties, tool.name).toEqual(
        expect.objectContaining(
          Object.fromEntries(Object.keys(tool.inputSchema.shape).map((k) => [k, expect.anything()])),
        ),
      );
      if (tool.outputSchema) expect(listed?.outputSchema?.type, tool.name).toBe('object');
      else expect(listed?.outputSchema, tool.name).toBeUndefined();
    }
  });
});
