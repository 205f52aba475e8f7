import { describe, expect, it } from 'vitest';
import { TabWriter, alignTabbed } from './tab-writer';

describe('TabWriter', () => {
  it('pads columns to the widest cell plus padding, at least the minimum width', () => {
    let out = '';
    const w = new TabWriter(
      (s) => {
        out += s;
      },
      14,
      1,
    );
    w.row('  VERSION', 'ISSUES');
    w.row('  4.20.0-okd-scos.ec.14', 'none');
    w.flush();
    expect(out).toBe('  VERSION               ISSUES\n  4.20.0-okd-scos.ec.14 none\n');
  });

  it('writes nothing for rows never flushed, and each flush aligns only its own rows', () => {
    let out = '';
    const w = new TabWriter(
      (s) => {
        out += s;
      },
      14,
      1,
    );
    w.row('  4.14.10', 'x');
    w.flush();
    w.row('  never', 'y');
    expect(out).toBe('  4.14.10     x\n');
  });

  it('aligns each column block anew after a line that lacks the column (a multi-line last cell)', () => {
    expect(alignTabbed([['a', 'b', 'x'], ['long cell', 'c', 'y'], ['  continued'], ['d', 'e', 'z']], 0, 3)).toEqual([
      'a           b   x',
      'long cell   c   y',
      '  continued',
      'd   e   z',
    ]);
  });
});
