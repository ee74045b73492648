import { describe, expect, it } from 'vitest';
import { quoteSchema } from './identifier.js';

describe('quoteSchema', () => {
  it('when the name is plain lower-case, then it is double-quoted', () => {
    expect(quoteSchema('admin')).toBe('"admin"');
    expect(quoteSchema('t_1a2b')).toBe('"t_1a2b"');
  });

  it.each(['Admin', 'a"b', 'a;drop', '1abc', '', 'x'.repeat(64)])(
    'when the name is %j, then it is refused',
    (name) => {
      expect(() => quoteSchema(name)).toThrow(/invalid schema name/);
    },
  );
});
