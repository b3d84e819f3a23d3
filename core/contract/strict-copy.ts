import { z } from 'zod';

/**
 * A copy of a schema whose objects, at every depth, reject keys they do not name. The protocols'
 * own schemas (`core/evaluation`, `core/crux`) strip unknown keys, as a reader of documents written
 * by another version should; a contract names every field it carries, so its views of the same
 * shapes are strict. Deriving them keeps one definition of each shape. Objects, arrays, nullables,
 * optionals, records (their values) and unions (discriminated ones too) are copied with the rest of
 * their definition (an array's length checks, say); any other schema is shared as it is, with its
 * checks and transforms.
 *
 * The copy is typed as the original: strict and stripping objects parse to the same type.
 */
export function strictCopy<T extends z.ZodType>(schema: T): T {
  return copy(schema) as T;
}

// zod's core types the parts of a schema more loosely than its classic API; every schema here is
// built with the classic API, so the parts are classic schemas too.
const part = (schema: unknown): z.ZodType => copy(schema as z.ZodType);

function copy(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(Object.entries(schema.shape).map(([key, value]) => [key, part(value)]));
    return schema.clone({ ...schema.def, shape, catchall: z.never() });
  }
  if (schema instanceof z.ZodArray) return schema.clone({ ...schema.def, element: part(schema.element) });
  if (schema instanceof z.ZodNullable) return schema.clone({ ...schema.def, innerType: part(schema.unwrap()) });
  if (schema instanceof z.ZodOptional) return schema.clone({ ...schema.def, innerType: part(schema.unwrap()) });
  if (schema instanceof z.ZodRecord) return schema.clone({ ...schema.def, valueType: part(schema.valueType) });
  // A discriminated union is a union too; its clone looks its options' discriminators up afresh.
  if (schema instanceof z.ZodUnion) return schema.clone({ ...schema.def, options: schema.options.map(part) });
  return schema;
}
