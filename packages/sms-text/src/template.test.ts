import { describe, expect, it } from 'vitest';
import { renderTemplate, templateFields } from './template.js';

describe('templateFields', () => {
  it('when a template has placeholders, then each name is listed once in order of first use', () => {
    expect(templateFields('Hi {{name}}, {{ code }} is your code, {{name}}. {{ref_2}}')).toEqual([
      'name',
      'code',
      'ref_2',
    ]);
  });

  it.each([
    ['no placeholders', 'Hello there'],
    ['single braces', 'Hello {name}'],
    ['a dash in the name', 'Hello {{first-name}}'],
    ['an empty name', 'Hello {{}}'],
    ['a space inside the name', 'Hello {{first name}}'],
    ['a newline inside the braces', 'Hello {{\nname}}'],
  ])('when a template has %s, then it has no fields', (_label, template) => {
    expect(templateFields(template)).toEqual([]);
  });
});

describe('renderTemplate', () => {
  it('when every field is given, then placeholders are filled', () => {
    expect(
      renderTemplate('Hi {{name}}, your code is {{ code }}.', { name: 'Åsa', code: 4711 }),
    ).toEqual({
      ok: true,
      text: 'Hi Åsa, your code is 4711.',
    });
  });

  it('when spaces or tabs surround the name, then the placeholder is still filled', () => {
    expect(renderTemplate('{{name}}|{{ name }}|{{\tname  }}', { name: 'x' })).toEqual({
      ok: true,
      text: 'x|x|x',
    });
  });

  it('when fields are missing, then all of them are reported once, in order', () => {
    expect(renderTemplate('{{a}} {{b}} {{c}} {{b}}', { c: 'ok' })).toEqual({
      ok: false,
      missing: ['a', 'b'],
    });
  });

  it('when a field is null or undefined, then it counts as missing', () => {
    expect(renderTemplate('{{a}}{{b}}', { a: null, b: undefined })).toEqual({
      ok: false,
      missing: ['a', 'b'],
    });
  });

  it('when a field is an empty string, then it is filled with nothing', () => {
    expect(renderTemplate('[{{a}}]', { a: '' })).toEqual({ ok: true, text: '[]' });
  });

  it('when a field name exists only on Object.prototype, then it is missing', () => {
    expect(renderTemplate('{{constructor}} {{toString}}', {})).toEqual({
      ok: false,
      missing: ['constructor', 'toString'],
    });
  });

  it('when a value looks like a placeholder or a replacement pattern, then it is inserted literally', () => {
    expect(renderTemplate('{{a}} {{b}}', { a: '{{b}}', b: '$& $1' })).toEqual({
      ok: true,
      text: '{{b}} $& $1',
    });
  });

  it('when extra fields are given, then they are ignored', () => {
    expect(renderTemplate('Hi {{name}}', { name: 'Bo', unused: 'x' })).toEqual({
      ok: true,
      text: 'Hi Bo',
    });
  });

  it('when text is not a placeholder, then it is kept as written', () => {
    expect(renderTemplate('{name} {{first-name}} {{{name}}}', { name: 'Bo' })).toEqual({
      ok: true,
      text: '{name} {{first-name}} {Bo}',
    });
  });

  it('when names differ in case, then they are different fields', () => {
    expect(renderTemplate('{{Name}}', { name: 'Bo' })).toEqual({ ok: false, missing: ['Name'] });
  });
});
