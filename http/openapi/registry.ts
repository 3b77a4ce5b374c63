import { z } from 'zod';

interface SchemaNote {
  /** Set for schemas published under `components.schemas`; references to them become `$ref`s. */
  id?: string;
  description?: string;
}

/**
 * The document's own metadata for zod schemas. It is kept apart from zod's global registry so
 * that publishing a component here changes nothing in the MCP tools' schemas, which read that one.
 */
export const schemaNotes = z.registry<SchemaNote>();

/** A copy of `schema` that carries `description` in the document; the shared original is untouched. */
export function noted<T extends z.ZodType>(schema: T, description: string): T {
  const copy = schema.clone() as T;
  schemaNotes.add(copy, { description });
  return copy;
}
