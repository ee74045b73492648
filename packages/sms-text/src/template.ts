/**
 * Batch message templates: `{{field_name}}` placeholders (spec 2.2), filled per recipient from
 * its field values. Spaces or tabs just inside the braces are allowed (`{{ name }}`); anything
 * that is not a placeholder, such as `{{first-name}}` or a single `{name}`, stays literal text.
 */
const PLACEHOLDER = /\{\{[ \t]*([A-Za-z0-9_]+)[ \t]*\}\}/g;

export type TemplateValue = string | number | boolean | null | undefined;
export type TemplateFields = Readonly<Record<string, TemplateValue>>;

export type RenderResult = { ok: true; text: string } | { ok: false; missing: string[] };

/** The placeholder names of a template, each once, in order of first use. */
export function templateFields(template: string): string[] {
  return [...new Set(Array.from(template.matchAll(PLACEHOLDER), (match) => match[1] ?? ''))];
}

/**
 * Fills every placeholder in one pass, so a value that itself looks like `{{x}}` is inserted
 * as text and never expanded. A field that is absent, null or undefined is missing; an empty
 * string is a value. Only the fields object's own keys count: `{{constructor}}` is not filled
 * from Object.prototype.
 */
export function renderTemplate(template: string, fields: TemplateFields): RenderResult {
  const missing = templateFields(template).filter((name) => fieldText(fields, name) === undefined);
  if (missing.length > 0) return { ok: false, missing };
  // A replacer function, not a replacement string, so that `$&` in a value stays literal.
  const text = template.replace(
    PLACEHOLDER,
    (_match, name: string) => fieldText(fields, name) ?? '',
  );
  return { ok: true, text };
}

function fieldText(fields: TemplateFields, name: string): string | undefined {
  if (!Object.hasOwn(fields, name)) return undefined;
  const value = fields[name];
  return value === null || value === undefined ? undefined : String(value);
}
