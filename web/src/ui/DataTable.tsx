// The console's tables: a labelled table of rows under column headers, scrolling sideways on a
// narrow screen, with a sentence in place of rows when there are none.
import { Table } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';

export interface Column<T> {
  header: ReactNode;
  cell: (row: T, index: number) => ReactNode;
  style?: CSSProperties;
}

export interface DataTableProps<T> {
  /** The table's accessible name. */
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string | number;
  /** Said in one row when there are no rows (none: an empty body). */
  empty?: ReactNode;
  /** Below this width the table scrolls sideways (none: it never does). */
  minWidth?: number;
  striped?: boolean;
  highlightOnHover?: boolean;
  withRowBorders?: boolean;
  /** Headers hidden (a list of label and value). */
  headless?: boolean;
}

export function DataTable<T>({ label, columns, rows, rowKey, empty, minWidth, striped, highlightOnHover, withRowBorders, headless }: DataTableProps<T>) {
  const table = (
    <Table striped={striped} highlightOnHover={highlightOnHover} withRowBorders={withRowBorders} aria-label={label}>
      {headless ? null : (
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, i) => (
              <Table.Th key={i}>{column.header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
      )}
      <Table.Tbody>
        {rows.length === 0 && empty !== undefined ? (
          <Table.Tr>
            <Table.Td colSpan={columns.length}>{empty}</Table.Td>
          </Table.Tr>
        ) : (
          rows.map((row, index) => (
            <Table.Tr key={rowKey(row, index)}>
              {columns.map((column, i) => (
                <Table.Td key={i} style={column.style}>
                  {column.cell(row, index)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))
        )}
      </Table.Tbody>
    </Table>
  );
  return minWidth === undefined ? table : <Table.ScrollContainer minWidth={minWidth}>{table}</Table.ScrollContainer>;
}
