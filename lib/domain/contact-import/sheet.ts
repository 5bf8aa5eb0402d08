/** One row of an uploaded sheet, whatever its format: the 1-based row (line) number and its cells as text. */
export interface SheetRow {
  readonly row: number;
  readonly cells: readonly string[];
}
