// An independent client (the official TypeScript SDK, not the Go one the Go
// tests use) connects to `dreamwiki mcp --demo` over stdio, lists its tools
// and asks memory_why, as an agent would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const bin = process.env.DREAMWIKI_BIN ??
  path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'browser', '.bin', 'dreamwiki');

test('the TypeScript SDK lists the tools and asks memory_why', async () => {
  const transport = new StdioClientTransport({ command: bin, args: ['mcp', '--demo', '--as-of', '2026-11-30'], stderr: 'inherit' });
  const client = new Client({ name: 'dreamwiki-ts-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, ['dream_plan', 'memory_changes', 'memory_get', 'memory_search', 'memory_why']);
    for (const t of tools) {
      assert.ok(t.description.length > 40, `${t.name} has a description an agent can act on`);
      assert.equal(t.inputSchema.type, 'object');
    }

    const res = await client.callTool({ name: 'memory_why', arguments: { claim: 'gateway host' } });
    assert.ok(!res.isError, JSON.stringify(res));
    const why = res.structuredContent;
    assert.match(why.claim.id, /^claim\./);
    assert.match(why.why, /^(Supported by|No evidence)/);
    assert.ok(Array.isArray(why.evidence));
    const cited = why.evidence.filter((e) => e.citation);
    assert.ok(cited.length > 0, 'memory_why cites its evidence');
    assert.match(cited[0].citation, /#L\d+-L\d+$/);

    const bad = await client.callTool({ name: 'memory_changes', arguments: {} });
    assert.equal(bad.isError, true, 'a call without since or dream is a tool error');

    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === 'dreamwiki://workspace/MEMORY.md'));
    const mem = await client.readResource({ uri: 'dreamwiki://workspace/MEMORY.md' });
    assert.match(mem.contents[0].text, /^# MEMORY\.md/);
  } finally {
    await client.close();
  }
});
