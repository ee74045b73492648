import { describe, expect, it } from 'vitest';
import { isUuid } from './uuid.js';

describe('isUuid', () => {
  it.each([
    '0b6f3a52-6c1e-4f0a-9d3b-2a7c5e8f1d40',
    '0B6F3A52-6C1E-4F0A-9D3B-2A7C5E8F1D40',
    '00000000-0000-0000-0000-000000000000',
    '0b6f3a52-6c1e-8f0a-9d3b-2a7c5e8f1d40',
  ])('when the text is %j (canonical form, any case or version), then it is a uuid', (text) => {
    expect(isUuid(text)).toBe(true);
  });

  it.each([
    '',
    'acme',
    '0b6f3a526c1e4f0a9d3b2a7c5e8f1d40',
    '{0b6f3a52-6c1e-4f0a-9d3b-2a7c5e8f1d40}',
    '0b6f3a52-6c1e-4f0a-9d3b-2a7c5e8f1d4',
    '0b6f3a52-6c1e-4f0a-9d3b-2a7c5e8f1d400',
    ' 0b6f3a52-6c1e-4f0a-9d3b-2a7c5e8f1d40',
    '0b6f3a52-6c1e-4f0a-9d3b-2a7c5e8f1d40\n',
    '0g6f3a52-6c1e-4f0a-9d3b-2a7c5e8f1d40',
  ])('when the text is %j, then it is not', (text) => {
    expect(isUuid(text)).toBe(false);
  });
});
