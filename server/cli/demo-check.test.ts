import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkScreenshot, checkVideo, lumaStdDev } from './demo-check';
import { escapeHtml, renderIndex } from './demo-report';

let dir: string;

function ffmpeg(...args: string[]): void {
  const result = spawnSync('ffmpeg', ['-v', 'error', '-y', ...args]);
  if (result.status !== 0) throw new Error(`ffmpeg ${args.join(' ')}: ${result.stderr?.toString()}`);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'uh-demo-check-'));
  ffmpeg('-f', 'lavfi', '-i', 'color=c=white:s=320x180', '-frames:v', '1', join(dir, 'blank.png'));
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=s=320x180', '-frames:v', '1', join(dir, 'page.png'));
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'testsrc=s=320x180:r=10',
    '-t',
    '6',
    '-c:v',
    'libvpx-vp9',
    '-deadline',
    'realtime',
    join(dir, 'long.webm'),
  );
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'testsrc=s=320x180:r=10',
    '-t',
    '2',
    '-c:v',
    'libvpx-vp9',
    '-deadline',
    'realtime',
    join(dir, 'short.webm'),
  );
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'color=c=black:s=320x180:r=10',
    '-t',
    '6',
    '-c:v',
    'libvpx-vp9',
    '-deadline',
    'realtime',
    join(dir, 'black.webm'),
  );
  writeFileSync(join(dir, 'broken.webm'), 'not a video');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('demo output checks', () => {
  it('tells a blank screenshot from a page', () => {
    expect(lumaStdDev(join(dir, 'blank.png'))).toBeLessThan(1);
    expect(checkScreenshot(join(dir, 'blank.png'))).toEqual([expect.stringMatching(/blank/)]);
    expect(checkScreenshot(join(dir, 'page.png'))).toEqual([]);
    expect(checkScreenshot(join(dir, 'missing.png'))).toEqual([expect.stringMatching(/does not decode/)]);
  });

  it('accepts a decodable video longer than 5 s with content, and names what is wrong otherwise', () => {
    const long = checkVideo(join(dir, 'long.webm'));
    expect(long.problems).toEqual([]);
    expect(long.seconds).toBeGreaterThan(5);
    expect(checkVideo(join(dir, 'short.webm')).problems).toEqual([expect.stringMatching(/expected more than 5 s/)]);
    expect(checkVideo(join(dir, 'black.webm')).problems).toEqual([
      expect.stringMatching(/blank frame at 25 %, 50 %, 75 %/),
    ]);
    expect(checkVideo(join(dir, 'broken.webm')).problems).toEqual([expect.stringMatching(/does not decode/)]);
  });
});

describe('demo index page', () => {
  it('lists every scenario with its video and captions as text, never markup', () => {
    const html = renderIndex(
      [
        {
          scenario: 'steady',
          title: 'A <b>healthy</b> cluster',
          resultsDir: '/tmp/x',
          steps: [
            { caption: 'The fleet & "its" <script>alert(1)</script>', screenshot: '01-the-fleet.png' },
            { caption: 'no screenshot' },
          ],
        },
      ],
      new Date(0),
    );
    expect(html).toContain('<video src="steady/video.webm"');
    expect(html).toContain('<img src="steady/01-the-fleet.png"');
    expect(html).toContain('1. The fleet &amp; &quot;its&quot; &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('A &lt;b&gt;healthy&lt;/b&gt; cluster');
    expect(html).not.toContain('<script>alert');
    expect(escapeHtml(`<a href='x'>`)).toBe('&lt;a href=&#39;x&#39;&gt;');
  });
});
