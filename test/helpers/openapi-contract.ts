import { afterEach } from 'vitest';
import { defaultConfig } from '../../core/config.ts';
import { API_BASE_PATH, serviceUrls } from '../../core/urls.ts';
import { buildOpenApiDocument } from '../../http/openapi/document.ts';
import { DocumentSchemas } from './openapi-schemas.ts';

/*
 * The contract test: every answer the REST suites receive from an API path is checked against the
 * published OpenAPI document: the status is declared for that operation (or it is the 404 of an
 * unknown path, or the 405 of an unsupported method with the right Allow header), the content type
 * is declared, the body validates against the declared schema (closed: undocumented fields fail),
 * and every required header is present and valid.
 */

type Json = Record<string, any>;

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Headers;
}

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

interface Contract {
  doc: Json;
  schemas: DocumentSchemas;
  templates: { path: string; pattern: RegExp }[];
}

const contracts = new Map<string, Contract>();

/**
 * The document the service at `siteUrl` publishes, built by the same function its route uses. The
 * configuration changes only the document's words and examples, never a schema, status or header
 * the answers are held to, so the built-in one serves every test service.
 */
function contractFor(siteUrl: string): Contract {
  let contract = contracts.get(siteUrl);
  if (!contract) {
    const doc = buildOpenApiDocument(serviceUrls(siteUrl), defaultConfig) as Json;
    const templates = Object.keys(doc.paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`),
    }));
    contract = { doc, schemas: new DocumentSchemas(doc), templates };
    contracts.set(siteUrl, contract);
  }
  return contract;
}

const mediaType = (value: string | null): string => (value ?? '').split(';')[0]!.trim().toLowerCase();

/** A browser page load under /api/ is redirected before the API answers (decisions §5). */
function isBrowserNavigation(exchange: Exchange): boolean {
  if (exchange.method !== 'GET' && exchange.method !== 'HEAD') return false;
  const mode = exchange.requestHeaders.get('sec-fetch-mode');
  if (mode) return mode === 'navigate';
  return (exchange.requestHeaders.get('accept') ?? '').startsWith('text/html');
}

function resolve(doc: Json, value: Json | undefined): Json | undefined {
  if (!value || typeof value.$ref !== 'string') return value;
  const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(value.$ref) ?? [];
  return doc.components[section!]?.[name!];
}

function headerValue(raw: string, schema: Json): unknown {
  return schema.type === 'integer' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
}

async function responseProblems(
  contract: Contract,
  key: string,
  declared: Json,
  exchange: Exchange,
  response: Response,
) {
  const { doc, schemas } = contract;
  const problems: string[] = [];
  for (const [name, headerSpec] of Object.entries<Json>(declared.headers ?? {})) {
    const header = resolve(doc, headerSpec)!;
    const raw = response.headers.get(name);
    if (raw === null) {
      if (header.required) problems.push(`missing required header ${name}`);
      continue;
    }
    for (const p of schemas.problems(`${key} header ${name}`, header.schema, headerValue(raw, header.schema)))
      problems.push(`header ${name}: ${p}`);
  }
  const body = await response.text();
  if (exchange.method === 'HEAD') {
    if (body !== '') problems.push('a HEAD answer has a body');
    return problems;
  }
  const content: Json = declared.content ?? {};
  if (Object.keys(content).length === 0) {
    if (body !== '') problems.push('the document declares no body, the answer has one');
    return problems;
  }
  const type = mediaType(response.headers.get('content-type'));
  const media = content[type];
  if (!media)
    return [...problems, `content type ${type || '(none)'} is not declared (${Object.keys(content).join(', ')})`];
  if (type !== 'application/json') return problems;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return [...problems, 'the body is not JSON'];
  }
  return [...problems, ...schemas.problems(`${key} ${type}`, media.schema, value).map((p) => `body ${p}`)];
}

/**
 * The ways this answer breaks the document; empty when it keeps it, or when the document does not
 * apply (not an API path, a browser page load, the switched-off API, the canonical 308 redirect).
 */
export async function contractProblems(siteUrl: string, exchange: Exchange, response: Response): Promise<string[]> {
  const path = new URL(exchange.url).pathname;
  if (path !== API_BASE_PATH && !path.startsWith(`${API_BASE_PATH}/`)) return [];
  if (isBrowserNavigation(exchange) || response.status === 308) return [];
  const contract = contractFor(siteUrl);
  const { doc } = contract;
  const relative = path.slice(API_BASE_PATH.length);
  const template = contract.templates.find((t) => t.pattern.test(relative));
  const shared = doc.components.responses;
  if (!template) {
    if (response.status !== 404) return [`${response.status} for a path that is not an endpoint (expected 404)`];
    return responseProblems(contract, 'NoSuchEndpoint', shared.NoSuchEndpoint, exchange, response);
  }
  const item: Json = doc.paths[template.path];
  const operation: Json | undefined = item[exchange.method.toLowerCase()];
  if (!operation) {
    if (response.status !== 405)
      return [`${response.status} for ${exchange.method} on ${template.path} (expected 405)`];
    const allowed = Object.keys(item).map((m) => m.toUpperCase());
    const allow = (response.headers.get('allow') ?? '').split(',').map((m) => m.trim());
    const problems = await responseProblems(contract, 'MethodNotAllowed', shared.MethodNotAllowed, exchange, response);
    if ([...allow].sort().join() !== [...allowed].sort().join())
      problems.push(`Allow is "${allow.join(', ')}", the document's methods are ${allowed.join(', ')}`);
    return problems;
  }
  const declared = resolve(doc, operation.responses[String(response.status)] ?? operation.responses.default);
  if (!declared) return [`status ${response.status} is not declared for ${operation.operationId}`];
  return responseProblems(contract, `${operation.operationId} ${response.status}`, declared, exchange, response);
}

/** Violations found by `checkAnswer` and not yet taken; each test must end with none. */
const unreported: string[] = [];

/** Takes the violations recorded so far (a test that provokes one on purpose takes it back). */
export const takeViolations = (): string[] => unreported.splice(0);

afterEach(() => {
  const left = takeViolations();
  if (left.length) throw new ContractViolation(`answers broke the OpenAPI document:\n${left.join('\n')}`);
});

/**
 * Passes `response` through when it keeps the document. A violating answer rejects, and is also
 * recorded so that a test which catches the rejection still fails when it ends.
 */
export async function checkAnswer(
  siteUrl: string,
  url: string,
  init: RequestInit,
  response: Response,
): Promise<Response> {
  const exchange = { method: (init.method ?? 'GET').toUpperCase(), url, requestHeaders: new Headers(init.headers) };
  const problems = await contractProblems(siteUrl, exchange, response.clone());
  if (problems.length === 0) return response;
  const message = `${exchange.method} ${new URL(url).pathname} answered ${response.status}: ${problems.join('; ')}`;
  unreported.push(message);
  throw new ContractViolation(message);
}
