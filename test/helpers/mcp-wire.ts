import { specTypeSchemas, type SpecTypeName } from '@modelcontextprotocol/client';
import { afterEach } from 'vitest';

/*
 * The wire check: every JSON-RPC message the server sends over HTTP in the MCP tests is held to
 * the SDK's own schemas (`specTypeSchemas`, the spec's types) for the message it answers, and to
 * what the negotiated revision adds or forbids on the wire: a 2026-07-28 result carries
 * `resultType`, and a cacheable one `ttlMs` and `cacheScope`, and no answer carries a session
 * id; a 2025-11-25 result carries none of those fields. A request's revision is the one its
 * `_meta` envelope names; a request without one speaks 2025-11-25.
 */

type Json = Record<string, unknown>;

export class WireViolation extends Error {
  override name = 'WireViolation';
}

const MODERN_KEY = 'io.modelcontextprotocol/protocolVersion';
const LEGACY_REVISION = '2025-11-25';

/** The result type of each method a client may call on this server. */
const RESULT_TYPES: Record<string, SpecTypeName> = {
  initialize: 'InitializeResult',
  'server/discover': 'DiscoverResult',
  ping: 'EmptyResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'completion/complete': 'CompleteResult',
};

/** Results the 2026-07-28 revision makes cacheable (they must say for how long, and for whom). */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
]);

/** Fields only the 2026-07-28 wire has. */
const MODERN_ONLY_FIELDS = ['resultType', 'ttlMs', 'cacheScope'];

interface SentRequest {
  method: string;
  revision: string;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function schemaProblems(type: SpecTypeName, value: unknown): string[] {
  const outcome = specTypeSchemas[type]['~standard'].validate(value) as {
    issues?: readonly { message: string; path?: readonly unknown[] }[];
  };
  return (outcome.issues ?? []).map(
    (issue) => `not a ${type}: ${(issue.path ?? []).map((p) => (isObject(p) ? p.key : p)).join('.')} ${issue.message}`,
  );
}

/** The requests of a POST body by id, with the revision each speaks (none when it is not JSON). */
export function sentRequests(text: unknown): Map<string | number, SentRequest> {
  const requests = new Map<string | number, SentRequest>();
  let body: unknown;
  try {
    body = typeof text === 'string' ? JSON.parse(text) : undefined;
  } catch {
    return requests;
  }
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!isObject(message) || typeof message.method !== 'string') continue;
    if (typeof message.id !== 'string' && typeof message.id !== 'number') continue;
    const meta = isObject(message.params) && isObject(message.params._meta) ? message.params._meta : {};
    const revision = typeof meta[MODERN_KEY] === 'string' ? meta[MODERN_KEY] : LEGACY_REVISION;
    requests.set(message.id, { method: message.method, revision });
  }
  return requests;
}

/** What is wrong with one message the server sent, answering `requests` (empty when nothing). */
export function messageProblems(message: unknown, requests: Map<string | number, SentRequest>): string[] {
  if (!isObject(message) || message.jsonrpc !== '2.0')
    return [`not a JSON-RPC 2.0 message: ${JSON.stringify(message)}`];
  if (typeof message.method === 'string') {
    // The server's own notifications and requests (this server sends no requests).
    if ('id' in message) return [`the server sent a request (${message.method}); it has none to send`];
    return schemaProblems('ServerNotification', message);
  }
  if ('error' in message) {
    // JSON-RPC answers `id: null` to a request it could not read; the schema's RequestId has no null.
    const { id, ...rest } = message;
    return schemaProblems('JSONRPCErrorResponse', id === null ? rest : message);
  }
  const problems = schemaProblems('JSONRPCResultResponse', message);
  if (problems.length > 0) return problems;
  const sent = requests.get(message.id as string | number);
  if (!sent) return [`a result for id ${String(message.id)}, which no request in the exchange has`];
  const type = RESULT_TYPES[sent.method];
  if (!type) return [`a result for ${sent.method}, a method the check does not know`];
  const result = message.result as Json;
  problems.push(...schemaProblems(type, result).map((p) => `${sent.method}: ${p}`));
  if (sent.revision === LEGACY_REVISION) {
    const foreign = MODERN_ONLY_FIELDS.filter((field) => field in result);
    if (foreign.length) problems.push(`${sent.method}: a ${LEGACY_REVISION} result carries ${foreign.join(', ')}`);
    return problems;
  }
  if (result.resultType !== 'complete' && result.resultType !== 'input_required') {
    problems.push(`${sent.method}: a ${sent.revision} result without resultType`);
  }
  if (CACHEABLE.has(sent.method)) {
    const { ttlMs, cacheScope } = result;
    if (!Number.isSafeInteger(ttlMs) || (ttlMs as number) < 0)
      problems.push(`${sent.method}: ttlMs is ${String(ttlMs)}`);
    if (cacheScope !== 'public' && cacheScope !== 'private') {
      problems.push(`${sent.method}: cacheScope is ${String(cacheScope)}`);
    }
  }
  return problems;
}

/** The JSON-RPC messages of an answer body: one JSON value (or a batch), or the data of SSE events. */
function messagesOf(contentType: string, text: string): unknown[] {
  if (contentType.startsWith('text/event-stream')) {
    // An event ends at a blank line: what follows the last one is an event cut off, or nothing.
    return text
      .split(/\r?\n\r?\n/)
      .slice(0, -1)
      .map((event) =>
        event
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n'),
      )
      .filter((data) => data.length > 0)
      .map((data) => JSON.parse(data) as unknown);
  }
  const value = JSON.parse(text) as unknown;
  return Array.isArray(value) ? value : [value];
}

/** Violations found and not yet taken; each test must end with none. */
const unreported: string[] = [];

/** Takes the violations recorded so far (a test that provokes one on purpose takes it back). */
export const takeWireViolations = (): string[] => unreported.splice(0);

/** The reads of answers to POSTs still under way (a GET's stream stays open as long as its session). */
const pending = new Set<Promise<void>>();

/** Resolves once every answer to a POST received so far has been read and checked. */
export async function wireChecksSettled(): Promise<void> {
  while (pending.size) await Promise.all(pending);
}

afterEach(async () => {
  await wireChecksSettled();
  const left = takeWireViolations();
  if (left.length) throw new WireViolation(`MCP messages broke the protocol schema:\n${left.join('\n')}`);
});

/** Every message sent and checked so far, by revision: a test can tell the check saw its exchanges. */
export const checkedMessages = new Map<string, number>();

function record(requests: Map<string | number, SentRequest>, messages: unknown[], headers: Headers): void {
  const revisions = new Set([...requests.values()].map((r) => r.revision));
  for (const message of messages) {
    for (const problem of messageProblems(message, requests)) unreported.push(problem);
  }
  for (const revision of revisions.size ? revisions : [LEGACY_REVISION]) {
    checkedMessages.set(revision, (checkedMessages.get(revision) ?? 0) + messages.length);
  }
  if (revisions.size && !revisions.has(LEGACY_REVISION) && headers.has('mcp-session-id')) {
    unreported.push(`a ${[...revisions].join(', ')} answer carries Mcp-Session-Id`);
  }
}

/**
 * Reads the messages of `response` to the request whose body (JSON text) was `requestBody` and records what
 * breaks the wire; the response is handed back unread. An event stream is read as it arrives (a
 * stream left open is checked as far as it got).
 */
export function checkMcpAnswer(requestBody: BodyInit | null | undefined, response: Response): Response {
  if (!response.body) return response;
  const requests = sentRequests(requestBody);
  const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
  const [mine, theirs] = response.body.tee();
  const read = readAll(mine).then((text) => recordText(requests, response.status, contentType, response.headers, text));
  if (requests.size > 0 || requestBody) {
    pending.add(read);
    void read.finally(() => pending.delete(read));
  }
  return new Response(theirs, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function recordText(
  requests: Map<string | number, SentRequest>,
  status: number,
  contentType: string,
  headers: Headers,
  text: string,
): void {
  if (!contentType.startsWith('application/json') && !contentType.startsWith('text/event-stream')) {
    // An empty answer (a 202 to a notification, a DELETE) carries no message; a 404 page none either.
    if (text.length > 0 && !(status === 404 && contentType.startsWith('text/html'))) {
      unreported.push(`an MCP answer (${status}) that is neither JSON nor an event stream: ${contentType}`);
    }
    return;
  }
  try {
    record(requests, messagesOf(contentType, text), headers);
  } catch (error) {
    unreported.push(`an MCP answer (${status}) that does not parse: ${String(error)}`);
  }
}

/**
 * The same check for an answer already read as text (a raw node:http exchange).
 */
export function checkMcpText(
  requestBody: string | undefined,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
): void {
  const flat = new Headers();
  for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') flat.set(name, value);
  recordText(sentRequests(requestBody), status, (flat.get('content-type') ?? '').toLowerCase(), flat, text);
}

/** The text of a stream, as far as it gets before it ends or breaks off. */
async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // cut off: the events that arrived whole are checked
  }
  return text;
}

/** A `fetch` for the SDK client's transport that checks every answer it receives. */
export const wireCheckedFetch: typeof fetch = async (input, init) =>
  // eslint-disable-next-line no-restricted-globals -- the client's own transport, to a loopback test server
  checkMcpAnswer(init?.body, await fetch(input, init));
