import { z } from 'zod';

/**
 * Reading facts back out of a field schema, through zod's public classes only, so that
 * describeConfig and loadConfig agree on what "default" and "secret" mean.
 */

export type ConfigShape = Readonly<Record<string, z.core.$ZodType>>;

/**
 * The field and the schemas it wraps. `.describe()` keeps metadata, but wrapping does not:
 * `secret().pipe(z.string().min(32))` is a new schema whose metadata is empty, while the
 * secret() inside it still says what the value is.
 */
function* layers(field: z.core.$ZodType): Generator<z.core.$ZodType> {
  yield field;
  if (
    field instanceof z.ZodDefault ||
    field instanceof z.ZodPrefault ||
    field instanceof z.ZodOptional ||
    field instanceof z.ZodNullable
  ) {
    yield* layers(field.unwrap());
  } else if (field instanceof z.ZodPipe) {
    yield* layers(field.in);
    yield* layers(field.out);
  }
}

export function isSecret(field: z.core.$ZodType): boolean {
  for (const layer of layers(field)) {
    if (layer instanceof z.ZodType && layer.meta()?.secret === true) return true;
  }
  return false;
}

export function descriptionOf(field: z.core.$ZodType): string | undefined {
  return field instanceof z.ZodType ? field.description : undefined;
}

/** The default as an operator would write it, or undefined when the field has none. */
export function defaultOf(field: z.core.$ZodType): string | undefined {
  for (const layer of layers(field)) {
    if (layer instanceof z.ZodDefault || layer instanceof z.ZodPrefault) {
      return formatDefault(layer.def.defaultValue);
    }
  }
  return undefined;
}

/** Required means: leaving the variable unset is an error (no default, not optional). */
export function isRequired(field: z.core.$ZodType): boolean {
  return !z.safeParse(field, undefined).success;
}

function formatDefault(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}
