import { describe, expect, it } from 'vitest';
import { Gauge, Registry } from 'prom-client';
import { parseExposition } from './exposition';
import { gaugeFamilyText } from './exposition-writer';

describe('gaugeFamilyText', () => {
  it('writes what prom-client writes for the same gauge, escapes included', async () => {
    const registry = new Registry();
    const help = 'A gauge with a backslash \\ and a\nnewline in its help.';
    const gauge = new Gauge({ name: 'a_gauge', help, labelNames: ['cluster', 'phase'], registers: [registry] });
    const samples = [
      { labels: { cluster: 'plain', phase: 'Progressing' }, value: 1 },
      { labels: { cluster: 'quote " back \\ new\nline', phase: 'x' }, value: 0.25 },
    ];
    for (const { labels, value } of samples) gauge.set(labels, value);
    expect(gaugeFamilyText('a_gauge', help, samples)).toBe(await registry.metrics());
  });

  it('reads back through the exposition parser, label values intact', () => {
    const text = gaugeFamilyText('g', 'help', [
      { labels: { cluster: 'c"1\\\n' }, value: 0.5 },
      { labels: {}, value: -Infinity },
    ]);
    const parsed = parseExposition(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.types).toEqual({ g: 'gauge' });
    expect(parsed.samples).toEqual([
      { name: 'g', labels: { cluster: 'c"1\\\n' }, value: 0.5 },
      { name: 'g', labels: {}, value: -Infinity },
    ]);
  });

  it('writes the header of a family without samples, as prom-client does', () => {
    expect(gaugeFamilyText('g', 'help', [])).toBe('# HELP g help\n# TYPE g gauge\n');
  });
});
