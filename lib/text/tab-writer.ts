/**
 * Go's `text/tabwriter` as oc's output depends on it. Cells end at a tab; the last cell of a line is not a column
 * and is written as is. A column block is a run of consecutive lines that have a cell in that column; each block is
 * padded to its widest cell plus `padding`, at least `minWidth`. A line with fewer cells (such as the second line
 * of a multi-line last cell) ends the blocks of the columns it lacks, so the rows after it align anew. Widths count
 * code points, as Go counts runes.
 */
export function alignTabbed(lines: readonly (readonly string[])[], minWidth: number, padding: number): string[] {
  const width = (cell: string) => [...cell].length;
  const out: string[] = [];
  const write = (from: number, to: number, widths: number[]) => {
    for (let i = from; i < to; i++) {
      out.push(
        lines[i].map((cell, j) => (j < widths.length ? cell + ' '.repeat(widths[j] - width(cell)) : cell)).join(''),
      );
    }
  };
  const format = (from: number, to: number, widths: number[]) => {
    const column = widths.length;
    let start = from;
    for (let i = from; i < to; i++) {
      if (column >= lines[i].length - 1) continue;
      write(start, i, widths);
      start = i;
      let columnWidth = minWidth;
      for (; i < to && column < lines[i].length - 1; i++)
        columnWidth = Math.max(columnWidth, width(lines[i][column]) + padding);
      format(start, i, [...widths, columnWidth]);
      start = i;
    }
    write(start, to, widths);
  };
  format(0, lines.length, []);
  return out;
}

/**
 * A buffering writer over {@link alignTabbed}: rows are aligned on {@link TabWriter.flush}. Rows still buffered
 * when a writer is dropped are never written, which oc's output relies on.
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
    for (const line of alignTabbed(this.rows, this.minWidth, this.padding)) this.write(`${line}\n`);
    this.rows = [];
  }
}
