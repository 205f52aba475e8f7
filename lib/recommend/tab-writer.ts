/**
 * The subset of Go's `text/tabwriter` that oc's recommend output depends on: rows of tab-terminated cells are
 * buffered and, on {@link TabWriter.flush}, written with every column padded to its widest cell plus `padding`,
 * at least `minWidth`. The last cell of a row is not a column and is written as is. Rows still buffered when a
 * writer is dropped are never written, which oc's output relies on.
 */
export class TabWriter {
  private rows: string[][] = [];

  constructor(
    private readonly write: (text: string) => void,
    private readonly minWidth: number,
    private readonly padding: number,
  ) {}

  /** Buffers one line; `cells` are the tab-separated parts (the last one is the line's tail). */
  row(...cells: string[]): void {
    this.rows.push(cells);
  }

  /** Writes the buffered lines, aligned, and empties the buffer. */
  flush(): void {
    const widths: number[] = [];
    for (const cells of this.rows) {
      for (let i = 0; i < cells.length - 1; i++) widths[i] = Math.max(widths[i] ?? this.minWidth, cells[i].length + this.padding);
    }
    for (const cells of this.rows) {
      const head = cells.slice(0, -1).map((cell, i) => cell.padEnd(widths[i], ' ')).join('');
      this.write(`${head}${cells[cells.length - 1]}\n`);
    }
    this.rows = [];
  }
}
