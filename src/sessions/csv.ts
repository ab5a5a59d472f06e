// CSV exports (RFC 4180): a header row, CRLF line ends, fields quoted when they hold a comma,
// quote or line break. Text that a spreadsheet would run as a formula (=, +, -, @, tab, CR at
// the start) gets a leading apostrophe: viewer ids come from anyone who can post a heartbeat.
export type CsvValue = string | number | boolean | Date | null | undefined;

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
}

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv<T>(columns: CsvColumn<T>[], rows: readonly T[]): string {
  const lines = [columns.map((c) => csvField(c.header)), ...rows.map((row) => columns.map((c) => csvField(c.value(row))))];
  return lines.map((fields) => `${fields.join(',')}\r\n`).join('');
}
