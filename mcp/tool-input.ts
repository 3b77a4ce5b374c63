import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { describeIssues, invalidRequest, err, ok, type Result } from '../core/index.ts';

/**
 * A tool's input schema as `tools/list` shows it (the zod schema's JSON Schema), with validation
 * left to the tool: the SDK would refuse bad arguments in its own words before the tool runs,
 * while `parseArguments` answers the contract's INVALID_REQUEST naming the field, as REST does.
 */
export function listedSchema(schema: z.ZodObject): StandardSchemaWithJSON<Record<string, unknown>> {
  const standard = schema['~standard'];
  return {
    '~standard': {
      version: 1,
      vendor: 'jewellery-design-jobs',
      validate: (value) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: standard.jsonSchema,
    },
  };
}

/**
 * The arguments checked against the tool's schema, or INVALID_REQUEST with a message that names
 * the field (an unknown one first, with the known one it resembles). `hint` may add the words an
 * unknown field needs, for example where a field of another protocol revision was sent.
 */
export function parseArguments<T extends z.ZodObject>(
  schema: T,
  args: Record<string, unknown>,
  hint: (unknownField: string) => string | undefined = () => undefined,
): Result<z.infer<T>> {
  const parsed = schema.safeParse(args, { reportInput: true });
  if (parsed.success) return ok(parsed.data);
  const unknown = parsed.error.issues.find((i) => i.code === 'unrecognized_keys' && i.path.length === 0);
  const extra = unknown?.code === 'unrecognized_keys' ? hint(unknown.keys[0] ?? '') : undefined;
  const message = describeIssues(parsed.error, (path) => knownKeys(schema, path));
  return err(invalidRequest(extra ? `${message} ${extra}` : message));
}

/** The keys of the object at `path` in the schema, for naming the one an unknown key resembles. */
function knownKeys(schema: z.ZodObject, path: PropertyKey[]): string[] {
  let at: z.ZodType = schema;
  for (const key of path) {
    const shape = objectShape(at);
    const next = shape?.[String(key)];
    if (!next) return [];
    at = next;
  }
  return Object.keys(objectShape(at) ?? {});
}

/** The shape of an object schema, through `.optional()`; undefined for anything else. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const def = schema.def as { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType };
  if (def.type === 'optional' && def.innerType) return objectShape(def.innerType);
  return def.type === 'object' ? def.shape : undefined;
}
