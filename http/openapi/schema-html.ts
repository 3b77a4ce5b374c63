import { escapeHtml } from '../../web/html.ts';
import { SCHEMA_REF, type JsonSchema } from './components.ts';

/** Everything here takes data from the document and escapes it; no caller passes markup in. */

const asSchema = (value: unknown): JsonSchema => (value && typeof value === 'object' ? (value as JsonSchema) : {});

/** The page anchor of a component schema. */
export const schemaAnchor = (id: string): string => `schema-${id}`;

function refLink(reference: string): string {
  const id = reference.startsWith(SCHEMA_REF) ? reference.slice(SCHEMA_REF.length) : reference;
  return `<a href="#${escapeHtml(schemaAnchor(id))}">${escapeHtml(id)}</a>`;
}

const code = (value: unknown): string =>
  `<code>${escapeHtml(typeof value === 'string' ? value : JSON.stringify(value))}</code>`;

/** Pattern, bounds and format in a few words. */
function constraints(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (typeof schema.format === 'string') out.push(`format ${escapeHtml(schema.format)}`);
  if (typeof schema.contentMediaType === 'string') out.push(`content ${escapeHtml(schema.contentMediaType)}`);
  if (typeof schema.pattern === 'string' && schema.format === undefined) out.push(`pattern ${code(schema.pattern)}`);
  for (const [key, words] of [
    ['minimum', 'at least'],
    ['exclusiveMinimum', 'more than'],
    ['maximum', 'at most'],
    ['minLength', 'length at least'],
    ['maxLength', 'length at most'],
  ] as const) {
    const value = schema[key];
    // zod states "integer" as a range up to 2^53 - 1: no news to a reader.
    if (typeof value === 'number' && Math.abs(value) !== Number.MAX_SAFE_INTEGER) out.push(`${words} ${value}`);
  }
  return out;
}

/** A schema in one line where it is simple, with a nested field table where it is an object. */
export function schemaHtml(value: unknown): string {
  const schema = asSchema(value);
  if (typeof schema.$ref === 'string') return refLink(schema.$ref);
  const variants = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(variants)) return variants.map(schemaHtml).join(' <em>or</em> ');
  if (schema.const !== undefined) return `${code(schema.const)}`;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(code).join(', ')}`;
  const notes = constraints(schema);
  const suffix = notes.length ? ` <span class="note">(${notes.join('; ')})</span>` : '';
  if (schema.type === 'array') return `array of ${schemaHtml(schema.items)}${suffix}`;
  if (schema.type === 'object' && schema.properties) return fieldsTable(schema);
  if (schema.type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    return `object whose values are ${schemaHtml(schema.additionalProperties)}`;
  }
  if (typeof schema.type === 'string') return `${escapeHtml(schema.type)}${suffix}`;
  return 'any value';
}

/** The fields of an object schema: name, required or not, type, description. */
function fieldsTable(schema: JsonSchema): string {
  const properties = asSchema(schema.properties);
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const rows = Object.entries(properties).map(([name, property]) => {
    const description = asSchema(property).description;
    return `<tr><td><code>${escapeHtml(name)}</code>${required.has(name) ? '' : ' <span class="note">optional</span>'}</td><td>${schemaHtml(property)}${
      typeof description === 'string' ? `<div class="note">${escapeHtml(description)}</div>` : ''
    }</td></tr>`;
  });
  const closed = schema.additionalProperties === false ? '<div class="note">No other fields are accepted.</div>' : '';
  return `<table class="fields"><tbody>${rows.join('')}</tbody></table>${closed}`;
}
