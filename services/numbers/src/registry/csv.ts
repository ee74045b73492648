/** One parsed CSV record with the 1-based line it started on. */
export interface CsvRecord {
  line: number;
  fields: Record<string, string>;
}

/**
 * RFC 4180 CSV: comma-separated, fields optionally in double quotes (a quote inside doubled),
 * CRLF or LF line ends, the first record is the header. Blank lines are skipped. Throws naming the
 * line on a record whose field count differs from the header's or on an unclosed quote.
 */
export function parseCsv(text: string, file: string): { header: string[]; records: CsvRecord[] } {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let rowHasContent = false;
  const endCell = () => {
    cells.push(cell);
    cell = '';
  };
  const endRow = () => {
    endCell();
    if (rowHasContent || cells.length > 1) rows.push({ line: rowLine, cells });
    cells = [];
    rowHasContent = false;
  };
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i];
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        if (char === '\n') line += 1;
        cell += char;
      }
      continue;
    }
    if (char === '"') {
      quoted = true;
      rowHasContent = true;
    } else if (char === ',') {
      endCell();
      rowHasContent = true;
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i += 1;
      endRow();
      line += 1;
      rowLine = line;
    } else {
      cell += char;
      rowHasContent = true;
    }
  }
  if (quoted) throw new Error(`${file}:${rowLine}: unclosed quote`);
  endRow();
  const [first, ...rest] = rows;
  if (!first) throw new Error(`${file}: empty, a header line is required`);
  const header = first.cells.map((name) => name.trim());
  const records = rest.map(({ line: at, cells: values }) => {
    if (values.length !== header.length) {
      throw new Error(`${file}:${at}: ${values.length} fields, the header has ${header.length}`);
    }
    return {
      line: at,
      fields: Object.fromEntries(header.map((name, index) => [name, (values[index] ?? '').trim()])),
    };
  });
  return { header, records };
}
