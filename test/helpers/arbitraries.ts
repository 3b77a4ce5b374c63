import fc from 'fast-check';
import { braceletBody } from './flows.ts';
import { SITE } from './service.ts';

/*
 * fast-check arbitraries for what callers send the API (test/properties/): request bodies
 * valid, nearly valid and hostile, content types, Idempotency-Keys, Authorization headers.
 */

/** A header value as fetch would send it, or undefined when fetch refuses it (non-Latin-1, CR, LF, NUL). */
export function headerValue(value: string): string | undefined {
  try {
    return new Headers({ x: value }).get('x') ?? undefined;
  } catch {
    return undefined;
  }
}

/** A number written into the JSON text as is: overflows, negative zero, forms JSON forbids. */
class RawNumber {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}
const RAW = /"\\u0000raw:([^"\\]*)\\u0000"/g;
export const toJsonText = (value: unknown): string =>
  JSON.stringify(value, (_, v) => (v instanceof RawNumber ? `\u0000raw:${v.text}\u0000` : v)).replace(RAW, '$1');

const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('x'.repeat(64), 'x'.repeat(65), 'é'.repeat(64), '😀'.repeat(33), '\u0000\u001f\u007f', '\ud800'),
  fc.constantFrom('<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', 'x'.repeat(70_000)),
);
const number = fc.oneof(
  fc.constantFrom(160, 110, 230, 7, 7.5, 3, 16, 170, 40, 20, 6, 5, 80, 2, 0, -0, -1, 1e308, 5e-324),
  fc.double(),
  fc.integer(),
  fc.constantFrom('160', 'NaN', '-0', '1e308', 'Infinity', ''),
  fc
    .constantFrom('1e309', '-1e309', '-0', '-0.0', '1E-400', '160.00000000000001', '00160', '+160', '.5', '0x10', 'NaN')
    .map((raw) => new RawNumber(raw)),
);
const json = fc.jsonValue({ maxDepth: 3 });
const product = fc.oneof(fc.constantFrom('bracelet', 'ring'), fc.constantFrom('Bracelet', ' ring', 'necklace'), text);
const size = fc.oneof(
  fc.record(
    { wristMm: number, fit: fc.oneof(fc.constantFrom('snug', 'comfort', 'loose', 'tight'), text) },
    {
      requiredKeys: ['wristMm'],
    },
  ),
  fc.record({ usRingSize: number }),
  fc.record({ lengthMm: number }),
  fc.record({ wristMm: number, usRingSize: number, lengthMm: number }, { requiredKeys: [] }),
  json,
);
const attribution = fc.oneof(
  fc.record({ agentPlatform: text, integration: text, skillVersion: text, apiVersion: text }, { requiredKeys: [] }),
  json,
);
/** The valid request's shape with any field missing, mutated, or joined by an unknown one. */
const nearValid = fc
  .tuple(
    fc.record({ productType: product, size, widthMm: number, attribution }, { requiredKeys: [] }),
    fc.option(fc.tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'widthmm', 'Size'), fc.string()), json)),
  )
  .map(([body, extra]) => {
    if (extra) Object.defineProperty(body, extra[0], { value: extra[1], enumerable: true, writable: true });
    return body;
  });
const attributionText = fc.string({ unit: 'grapheme', maxLength: 64 });
/** Requests the contract accepts (sizes inside or just outside their bounds). */
const validBody = fc.oneof(
  fc.record({
    productType: fc.constant('bracelet'),
    size: fc.record(
      { wristMm: fc.integer({ min: 100, max: 240 }), fit: fc.constantFrom('snug', 'comfort', 'loose') },
      {
        requiredKeys: ['wristMm'],
      },
    ),
    widthMm: fc.integer({ min: 4, max: 81 }),
  }),
  fc.record({
    productType: fc.constant('ring'),
    size: fc.record({ usRingSize: fc.integer({ min: 5, max: 33 }).map((n) => n / 2) }),
    widthMm: fc.double({ min: 1.5, max: 21, noNaN: true }),
  }),
  fc.record(
    {
      productType: fc.constantFrom('bracelet', 'ring'),
      size: fc.record({ lengthMm: fc.double({ min: 30, max: 300, noNaN: true }) }),
      widthMm: fc.integer({ min: 2, max: 80 }),
      attribution: fc.record(
        { agentPlatform: attributionText, integration: attributionText, skillVersion: attributionText },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ['productType', 'size', 'widthMm'] },
  ),
);
/** Requests well inside every bound. */
export const acceptedBody = fc.oneof(
  fc.record({
    productType: fc.constant('bracelet'),
    size: fc.record({ wristMm: fc.integer({ min: 110, max: 230 }) }),
    widthMm: fc.integer({ min: 10, max: 40 }),
  }),
  fc.record({
    productType: fc.constant('ring'),
    size: fc.record({ usRingSize: fc.integer({ min: 6, max: 32 }).map((n) => n / 2) }),
    widthMm: fc.integer({ min: 2, max: 20 }),
  }),
);
/** A valid request with one field dropped or replaced by something odd. */
const mutatedBody = fc
  .tuple(
    validBody,
    fc.constantFrom('productType', 'size', 'widthMm', 'attribution'),
    fc.option(fc.oneof(number, text, json)),
  )
  .map(([body, field, value]) => {
    const copy: Record<string, unknown> = { ...body };
    if (value === null) delete copy[field];
    else copy[field] = value;
    return copy;
  });
/** The same JSON value with its keys in reverse order, which must count as the same body. */
export const reversed = (value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(
        Object.entries(value)
          .reverse()
          .map(([k, v]) => [k, reversed(v)]),
      )
    : value;
const jsonText = fc.oneof(
  { weight: 3, arbitrary: validBody.map(toJsonText) },
  { weight: 2, arbitrary: mutatedBody.map(toJsonText) },
  { weight: 2, arbitrary: nearValid.map(toJsonText) },
  { weight: 1, arbitrary: json.map((v) => JSON.stringify(v)) },
);
/** Bodies at the edges: over the 64 KiB cap, a BOM, nesting 30,000 deep inside the cap. */
const edgeBodies = [
  `${' '.repeat(70_000)}{}`,
  `\ufeff${JSON.stringify(braceletBody)}`,
  `{"size":${'['.repeat(30_000)}${']'.repeat(30_000)}}`,
  `{"productType":"bracelet","size":{"wristMm":160},"widthMm":20,"attribution":${'{"a":'.repeat(9_000)}1${'}'.repeat(9_000)}}`,
];
/** Body bytes: JSON text, a cut or padded one, any text, bytes that are not UTF-8, oversized. */
export const jobBody = fc.oneof(
  { weight: 6, arbitrary: jsonText },
  { weight: 1, arbitrary: fc.tuple(jsonText, fc.nat()).map(([t, n]) => t.slice(0, n % (t.length + 1))) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 80 }) },
  { weight: 1, arbitrary: fc.constantFrom(...edgeBodies) },
);
export const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/problem+json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);
const FIXED_KEYS = ['key-one-0001', '12345678'];
export const idempotencyKey = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 6, arbitrary: fc.constantFrom(...FIXED_KEYS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 140 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'x'.repeat(128), 'x'.repeat(129), 'sieben7', 'clé-1234') },
);

/**
 * JSON value with keys sorted: what "the same body" means for an Idempotency-Key. Past 32 levels
 * (the edge bodies nest 30,000 deep) it names no value: no request that opens a job is that deep.
 */
export function canonical(value: unknown, depth = 0): string {
  if (depth > 32) return '(too deep)';
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v, depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The body as the service reads it (UTF-8, a leading BOM dropped), when it is JSON at all. */
export function parsedBody(body: string | Uint8Array): { json: unknown } | undefined {
  try {
    const text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body);
    return { json: JSON.parse(text.replace(/^\ufeff/, '')) };
  } catch {
    return undefined;
  }
}

export const isJsonType = (type: string | undefined) => {
  const media = (type ?? '').split(';')[0]!.trim().toLowerCase();
  return media === 'application/json' || media.endsWith('+json');
};

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Changes the secret so that it is certainly not the secret any more. */
const mutateSecret = fc.oneof(
  fc.nat().map((n) => (s: string) => s.slice(0, s.length - 1 - (n % 44))),
  fc.string({ unit: 'binary-ascii', maxLength: 5 }).map((extra) => (s: string) => `${s}${extra}x`),
  fc.tuple(fc.nat(), fc.nat()).map(([at, by]) => (s: string) => {
    const i = 4 + (at % 43);
    const other = BASE64URL[(BASE64URL.indexOf(s[i]!) + 1 + (by % 63)) % 64]!;
    return s.slice(0, i) + other + s.slice(i + 1);
  }),
  fc.constantFrom('ajs-', 'AJS_', 'ajt_', '').map((prefix) => (s: string) => prefix + s.slice(4)),
  fc.constantFrom('+', '/', '=', 'é', '.').map((c) => (s: string) => `${s.slice(0, 20)}${c}${s.slice(21)}`),
);
const schemeWord = fc.constantFrom('Bearer', 'bearer', 'BEARER', 'bEaReR');
export type Credential = { right: boolean; header: (own: string, foreign: string) => string | undefined };
/** The job's own secret under the Bearer scheme, or anything that is not exactly that. */
export const credential: fc.Arbitrary<Credential> = fc.oneof(
  { weight: 2, arbitrary: schemeWord.map((w) => ({ right: true, header: (own: string) => `${w} ${own}` })) },
  { weight: 1, arbitrary: fc.constant({ right: false, header: () => undefined }) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: 'binary', maxLength: 80 }).map((h) => ({ right: false, header: () => h })),
  },
  {
    weight: 1,
    arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((t) => ({
      right: false,
      header: () => `Bearer ${t}`,
    })),
  },
  {
    weight: 3,
    arbitrary: fc.tuple(schemeWord, mutateSecret).map(([w, mutate]) => ({
      right: false,
      header: (own: string) => `${w} ${mutate(own)}`,
    })),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom<(own: string, foreign: string) => string>(
        (_, foreign) => `Bearer ${foreign}`,
        (own) => own,
        (own) => `Basic ${own}`,
        (own) => `Token ${own}`,
        (own) => `Bearerx ${own}`,
        (own) => `Bearer ${own} ${own}`,
        (own) => `Bearer ${own},Bearer ${own}`,
        (own) => `Bearer "${own}"`,
      )
      .map((header) => ({ right: false, header })),
  },
);
export const FORM = 'application/x-www-form-urlencoded';
const handoffBody = fc.oneof(
  fc.record({ submissionNo: fc.oneof(fc.constant(1), number, text, json) }).map(toJsonText),
  fc.constantFrom('{"submissionNo":1}', '{"submissionNo":1.0}', '{"submissionNo":1e0}', '{"submissionNo":"1"}'),
  json.map((v) => JSON.stringify(v)),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map((v) => `submissionNo=${encodeURIComponent(v)}`),
  fc.constantFrom('submissionNo=1', 'submissionNo=01', 'submissionNo=1&submissionNo=2', 'submissionNo=%ZZ', ''),
  fc.uint8Array({ maxLength: 40 }),
);
export const handoffStep = fc.record({
  action: fc.constantFrom('adopt', 'decline'),
  token: fc.oneof(
    { weight: 4, arbitrary: fc.constant('live') },
    { weight: 1, arbitrary: fc.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{12}$/) },
    {
      weight: 1,
      // '.' and '..' are dot segments: the URL parser resolves them away, so no token reaches a route.
      arbitrary: fc
        .string({ minLength: 1, maxLength: 30 })
        .map(encodeURIComponent)
        .filter((token) => token !== '.' && token !== '..'),
    },
  ),
  type: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('application/json', FORM) },
    { weight: 1, arbitrary: fc.constantFrom('text/plain', 'multipart/form-data; boundary=x', '') },
    { weight: 1, arbitrary: fc.constant(undefined) },
  ),
  body: handoffBody,
  cookie: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('first', 'second') },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((v) => `jds=${v}`) },
  ),
  origin: fc.constantFrom(undefined, SITE, 'null', 'https://evil.example', 'http://localhost:8788'),
  fetchSite: fc.constantFrom(undefined, undefined, 'same-origin', 'same-site', 'cross-site', 'none'),
});
