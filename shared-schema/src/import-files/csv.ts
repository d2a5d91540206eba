// RFC 4180 CSV in one linear pass: quoted fields with commas, quotes ("") and newlines, CRLF or LF, a UTF-8 BOM.

export interface CsvRecord {
  /** The file line the record starts on (1-based), for the reader's "line 12 failed". */
  line: number;
  fields: string[];
  /** A quote opened in this record never closed: the rest of the file was swallowed into it. */
  unterminated: boolean;
}

export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const length = text.length;
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let record: CsvRecord = { line, fields: [], unterminated: false };

  // The next newline at or after the last place looked at: each search starts past the previous one.
  let nextNewline = -2;
  const countLines = (from: number, to: number) => {
    for (;;) {
      if (nextNewline !== -1 && nextNewline < from) nextNewline = text.indexOf('\n', from);
      if (nextNewline === -1 || nextNewline >= to) return;
      line += 1;
      from = nextNewline + 1;
    }
  };

  while (index < length) {
    let value = '';
    if (text[index] === '"') {
      index += 1;
      for (;;) {
        const quote = text.indexOf('"', index);
        if (quote === -1) {
          countLines(index, length);
          value += text.slice(index);
          index = length;
          record.unterminated = true;
          break;
        }
        countLines(index, quote);
        value += text.slice(index, quote);
        if (text[quote + 1] === '"') {
          value += '"';
          index = quote + 2;
        } else {
          index = quote + 1;
          break;
        }
      }
    }
    // Up to the next separator: the whole unquoted field, or whatever stray text follows a closing quote.
    let end = index;
    while (end < length) {
      const code = text.charCodeAt(end);
      if (code === 44 /* , */ || code === 10 /* \n */ || code === 13 /* \r */) break;
      end += 1;
    }
    value += text.slice(index, end);
    record.fields.push(value);
    index = end;
    if (index >= length) break;
    if (text[index] === ',') {
      index += 1;
      if (index === length) record.fields.push('');
      continue;
    }
    index += text[index] === '\r' && text[index + 1] === '\n' ? 2 : 1;
    line += 1;
    if (record.fields.length > 1 || record.fields[0] !== '') records.push(record);
    record = { line, fields: [], unterminated: false };
  }
  if (record.fields.length > 1 || (record.fields.length === 1 && record.fields[0] !== '')) {
    records.push(record);
  }
  return records;
}

export interface CsvRow {
  line: number;
  unterminated: boolean;
  /** A field by its lower-cased header name; '' when the column is missing or empty. */
  get(name: string): string;
}

/** The header (lower-cased, trimmed) and the rows after it. */
export function csvTable(text: string): { header: string[]; rows: CsvRow[] } {
  const [head, ...body] = parseCsv(text);
  const header = (head?.fields ?? []).map((name) => name.trim().toLowerCase());
  const columns = new Map(header.map((name, index) => [name, index]));
  return {
    header,
    rows: body.map(({ line, fields, unterminated }) => ({
      line,
      unterminated,
      get: (name: string) => {
        const column = columns.get(name);
        return column === undefined ? '' : (fields[column] ?? '').trim();
      },
    })),
  };
}
