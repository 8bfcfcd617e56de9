// The Model Context Protocol side of `refactor-browser mcp`: the tools offered over stdio with
// the official SDK. A bundle of its own (dist/mcp.js), which the command line loads only for `mcp`:
// the SDK is as large as the rest of the command line, and no other command should pay for it.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { CODE_DESCRIPTION, CODE_INPUT_SCHEMA, MCP_TOOL_NAMES, SEARCH_DESCRIPTION, SEARCH_INPUT_SCHEMA, SIMILAR_DESCRIPTION, SIMILAR_INPUT_SCHEMA } from './agents/tools';
import type { CatalogTools, ToolAnswer } from './cli/mcp';

interface ObjectSchema {
  properties: Record<string, Record<string, unknown>>;
  required: readonly string[];
}

/**
 * The SDK's schema for a JSON Schema the extension's tools share: listed to clients as that schema
 * says, but letting every input through as it is, so that the tools' own reading
 * (src/agents/tools.ts) refuses a bad one in the same one line as the extension does, not the SDK's.
 */
function schemaOf(schema: ObjectSchema): z.ZodType {
  const shape = Object.fromEntries(Object.entries(schema.properties).map(([key, property]) => [key, z.unknown().optional().meta(property)]));
  return z.object(shape).meta({ required: [...schema.required] });
}

function result(answer: ToolAnswer): { content: { type: 'text'; text: string }[]; isError?: boolean } {
  return answer.isError ? { content: [{ type: 'text', text: answer.text }], isError: true } : { content: [{ type: 'text', text: answer.text }] };
}

/** Serves the tools on stdin and stdout until the client closes stdin (or the process is told to stop). */
export async function serveMcp(tools: CatalogTools, version: string): Promise<void> {
  const server = new McpServer({ name: 'refactor-browser', title: 'Refactor Browser', version });
  const annotations = { readOnlyHint: true, openWorldHint: true };
  server.registerTool(MCP_TOOL_NAMES.search, {
    title: 'Search the catalog', description: SEARCH_DESCRIPTION, inputSchema: schemaOf(SEARCH_INPUT_SCHEMA), annotations,
  }, async (input) => result(await tools.searchCatalog(input)));
  server.registerTool(MCP_TOOL_NAMES.code, {
    title: 'Read a code with its refactorings', description: CODE_DESCRIPTION, inputSchema: schemaOf(CODE_INPUT_SCHEMA), annotations,
  }, async (input) => result(await tools.getCode(input)));
  server.registerTool(MCP_TOOL_NAMES.similar, {
    title: 'Find code like this, with its best refactoring', description: SIMILAR_DESCRIPTION, inputSchema: schemaOf(SIMILAR_INPUT_SCHEMA), annotations,
  }, async (input) => result(await tools.findSimilarCode(input)));

  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    // The transport reads stdin but does not end with it: its end is the client going away.
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
