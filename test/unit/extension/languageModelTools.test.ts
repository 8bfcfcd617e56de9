// package.json's language model tools against what the MCP server offers (src/agents/tools.ts): the
// same inputs, property by property, apart from the descriptions, which package.json localizes; and
// the names and reference names people and agents rely on.
import * as assert from 'node:assert/strict';
import { CODE_INPUT_SCHEMA, SIMILAR_INPUT_SCHEMA, SEARCH_INPUT_SCHEMA } from '../../../src/agents/tools';
import { localizedManifest } from '../../helpers/manifest';

interface ToolContribution {
  name: string;
  toolReferenceName: string;
  canBeReferencedInPrompt: boolean;
  displayName: string;
  userDescription: string;
  modelDescription: string;
  inputSchema: unknown;
}

const tools = localizedManifest<{ contributes: { languageModelTools: ToolContribution[] } }>().contributes.languageModelTools;

/** A schema without its descriptions. */
function shape(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) => (key === 'description' ? undefined : value));
}

describe('package.json: language model tools', () => {
  it('contributes searchCatalog, getCode and findSimilar under their names, for a prompt to reference', () => {
    assert.deepEqual(tools.map((t) => [t.name, t.toolReferenceName, t.canBeReferencedInPrompt]), [
      ['refactorBrowser_searchCatalog', 'searchCatalog', true],
      ['refactorBrowser_getCode', 'getCode', true],
      ['refactorBrowser_findSimilar', 'findSimilar', true],
    ]);
    for (const t of tools) {
      for (const text of [t.displayName, t.userDescription, t.modelDescription]) assert.ok(text.length > 10 && !text.includes('%'), `${t.name}: ${text}`);
    }
  });

  it('takes the inputs the MCP server takes', () => {
    assert.deepEqual(shape(tools[0].inputSchema), shape(SEARCH_INPUT_SCHEMA));
    assert.deepEqual(shape(tools[1].inputSchema), shape(CODE_INPUT_SCHEMA));
    assert.deepEqual(shape(tools[2].inputSchema), shape(SIMILAR_INPUT_SCHEMA));
  });
});
