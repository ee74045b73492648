import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.js';

describe('parseCsv', () => {
  it('when fields are quoted with commas, quotes and CRLF, then they are read as written', () => {
    const { header, records } = parseCsv(
      'spid,name\r\n001,"Telia, ""the"" operator"\r\n\r\n002,Tre\r\n',
      'x.csv',
    );
    expect(header).toEqual(['spid', 'name']);
    expect(records).toEqual([
      { line: 2, fields: { spid: '001', name: 'Telia, "the" operator' } },
      { line: 4, fields: { spid: '002', name: 'Tre' } },
    ]);
  });

  it('when a record has the wrong number of fields, then the error names the file and line', () => {
    expect(() => parseCsv('a,b\n1,2\n3\n', 'ports.csv')).toThrow('ports.csv:3: 1 fields');
  });

  it('when a quote is not closed, then it is refused', () => {
    expect(() => parseCsv('a\n"open\n', 'x.csv')).toThrow(/unclosed quote/);
  });

  it('when the file is empty, then a header is asked for', () => {
    expect(() => parseCsv('', 'x.csv')).toThrow(/header/);
  });
});
