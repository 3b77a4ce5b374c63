import { describe, expect, it } from 'vitest';
import { REVISIONS } from '../helpers/mcp.ts';
import { modernRequest } from '../helpers/mcp-http.ts';
import { messageProblems, sentRequests } from '../helpers/mcp-wire.ts';

/** The wire check the MCP HTTP tests rely on (test/helpers/mcp-wire.ts) tells a bad message from a good one. */

const legacy = sentRequests(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
const modern = sentRequests(modernRequest('tools/list').body);
const tool = { name: 't', inputSchema: { type: 'object' } };

describe('the MCP wire check', () => {
  it('takes a valid result at each revision', () => {
    expect(messageProblems({ jsonrpc: '2.0', id: 1, result: { tools: [tool] } }, legacy)).toEqual([]);
    const stamped = { tools: [tool], resultType: 'complete', ttlMs: 0, cacheScope: 'private' };
    expect(messageProblems({ jsonrpc: '2.0', id: 1, result: stamped }, modern)).toEqual([]);
    expect(messageProblems({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'no' } }, legacy)).toEqual([]);
  });

  it(`flags 2026-07-28 fields in a ${REVISIONS.legacy} result, and their absence in a ${REVISIONS.modern} one`, () => {
    const stamped = { tools: [tool], resultType: 'complete', ttlMs: 0, cacheScope: 'private' };
    expect(messageProblems({ jsonrpc: '2.0', id: 1, result: stamped }, legacy)).toEqual([
      'tools/list: a 2025-11-25 result carries resultType, ttlMs, cacheScope',
    ]);
    expect(
      messageProblems({ jsonrpc: '2.0', id: 1, result: { tools: [tool], resultType: 'complete' } }, modern),
    ).toEqual(['tools/list: ttlMs is undefined', 'tools/list: cacheScope is undefined']);
  });

  it('flags a result that breaks its schema, one for no request, and a request from the server', () => {
    const bad = messageProblems({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 7 }] } }, legacy);
    expect(bad.length).toBeGreaterThan(0);
    expect(bad[0]).toMatch(/^tools\/list: not a ListToolsResult/);
    expect(messageProblems({ jsonrpc: '2.0', id: 9, result: {} }, legacy)).toEqual([
      'a result for id 9, which no request in the exchange has',
    ]);
    expect(messageProblems({ jsonrpc: '2.0', id: 5, method: 'sampling/createMessage', params: {} }, legacy)).toEqual([
      'the server sent a request (sampling/createMessage); it has none to send',
    ]);
  });
});
