import { describe, expect, it } from 'vitest';
import { libreTranslateCode } from './libretranslate-languages.js';

describe('libreTranslateCode', () => {
  it('when the server list is unknown, then the classic model codes are chosen', () => {
    expect(
      ['en-GB', 'en-US', 'pt-PT', 'pt-BR', 'no', 'zh', 'sv'].map((tag) => libreTranslateCode(tag)),
    ).toEqual(['en', 'en', 'pt', 'pt-BR', 'nb', 'zh', 'sv']);
  });

  it('when an older server lists pb and zh, then pt-BR goes as pb and zh as zh', () => {
    const available = new Set(['en', 'pt', 'pb', 'zh', 'nb']);
    expect(libreTranslateCode('pt-BR', available)).toBe('pb');
    expect(libreTranslateCode('zh', available)).toBe('zh');
  });

  it('when a newer server lists pt-BR and zh-Hans, then those are chosen', () => {
    const available = new Set(['en', 'pt', 'pt-br', 'zh-hans']);
    expect(libreTranslateCode('pt-BR', available)).toBe('pt-BR');
    expect(libreTranslateCode('zh', available)).toBe('zh-Hans');
  });

  it('when the server has no model for a language, then no code is chosen', () => {
    expect(libreTranslateCode('af', new Set(['en', 'sv']))).toBeUndefined();
    expect(libreTranslateCode('pt-BR', new Set(['en']))).toBeUndefined();
  });
});
