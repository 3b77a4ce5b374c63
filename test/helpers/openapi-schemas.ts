import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, unknown>;

// ajv-formats is CommonJS; under ESM its default export arrives wrapped once more.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => void;

const DOC_ID = 'https://contract.test/openapi.json';
const COMPONENT_REF = '#/components/schemas/';

/**
 * The document's schemas as the contract test reads them: references point into one registered
 * copy of `components.schemas`, and every object schema that does not say otherwise is closed, so
 * a field the service sends but the document does not describe is a violation too.
 */
function forTest(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forTest);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof item === 'string' && item.startsWith(COMPONENT_REF)
        ? `${DOC_ID}#/$defs/${item.slice(COMPONENT_REF.length)}`
        : forTest(item);
  }
  if (out.type === 'object' && out.properties && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

/** Strict ajv (draft 2020-12, the dialect of OpenAPI 3.1) over one OpenAPI document's schemas. */
export class DocumentSchemas {
  readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(doc: Json) {
    this.ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
    addFormats(this.ajv);
    const components = ((doc.components as Json | undefined)?.schemas ?? {}) as Json;
    this.ajv.addSchema({ $id: DOC_ID, $defs: forTest(components) });
  }

  /** Validates `value` against a schema of the document (cached by `key`); the problems, if any. */
  problems(key: string, schema: unknown, value: unknown): string[] {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(forTest(schema) as Json);
      this.compiled.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword}`);
  }
}
