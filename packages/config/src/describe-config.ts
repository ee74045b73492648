import type { z } from 'zod';
import { defaultOf, descriptionOf, isRequired, isSecret } from './introspect.js';

export interface ConfigEntry {
  name: string;
  description: string | undefined;
  /** In the form an operator would type it; undefined when there is none. */
  default: string | undefined;
  required: boolean;
  secret: boolean;
}

/**
 * The settings of a schema in declaration order, for the settings table of a service README
 * or a `--help` output. Reads the schema only; never the environment.
 */
export function describeConfig(schema: z.ZodObject): ConfigEntry[] {
  return Object.entries(schema.shape).map(([name, field]) => ({
    name,
    description: descriptionOf(field),
    default: defaultOf(field),
    required: isRequired(field),
    secret: isSecret(field),
  }));
}
