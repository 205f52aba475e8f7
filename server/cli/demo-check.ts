/**
 * Checks of a recorded demo: videos decode with ffprobe/ffmpeg, last longer than a minimum and show something;
 * screenshots are not blank. "Blank" is measured, not guessed: the luma standard deviation of a downscaled frame.
 */
import { spawnSync } from 'node:child_process';

/** Below this luma standard deviation (0-255) a frame is taken for a blank (single-colour) image. */
export const BLANK_STDDEV = 4;
export const MIN_VIDEO_SECONDS = 5;

const SAMPLE = { width: 160, height: 90 };

function run(command: string, args: string[]): { ok: boolean; stdout: Buffer; stderr: string } {
  const result = spawnSync(command, args, { maxBuffer: 64 * 1024 * 1024 });
  return {
    ok: result.status === 0,
    stdout: result.stdout ?? Buffer.alloc(0),
    stderr: result.stderr?.toString() ?? String(result.error ?? ''),
  };
}

/** Luma standard deviation of one image, or of the video frame at `atSeconds`; undefined if it does not decode. */
export function lumaStdDev(path: string, atSeconds?: number): number | undefined {
  const seek = atSeconds === undefined ? [] : ['-ss', atSeconds.toFixed(2)];
  const { ok, stdout } = run('ffmpeg', [
    '-v',
    'error',
    ...seek,
    '-i',
    path,
    '-frames:v',
    '1',
    '-vf',
    `scale=${SAMPLE.width}:${SAMPLE.height}`,
    '-pix_fmt',
    'gray',
    '-f',
    'rawvideo',
    '-',
  ]);
  if (!ok || stdout.length < SAMPLE.width * SAMPLE.height) return undefined;
  let sum = 0;
  let squares = 0;
  for (const v of stdout) {
    sum += v;
    squares += v * v;
  }
  const mean = sum / stdout.length;
  return Math.sqrt(Math.max(0, squares / stdout.length - mean * mean));
}

/**
 * Decoded duration of a video in seconds. Recorded webm files often carry no duration in their header, so this
 * decodes the stream and reads the last frame's timestamp.
 */
export function videoSeconds(path: string): number | undefined {
  const { ok, stdout } = run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'frame=pts_time',
    '-of',
    'csv=p=0',
    path,
  ]);
  if (!ok) return undefined;
  const times = stdout
    .toString()
    .split('\n')
    .map(Number)
    .filter((t) => Number.isFinite(t) && t > 0);
  return times.length === 0 ? undefined : Math.max(...times);
}

/** Problems with one video: missing, undecodable, too short, or blank at a quarter, half and three quarters. */
export function checkVideo(path: string, minSeconds = MIN_VIDEO_SECONDS): { seconds?: number; problems: string[] } {
  const seconds = videoSeconds(path);
  if (seconds === undefined) return { problems: [`${path}: does not decode (ffprobe)`] };
  const problems: string[] = [];
  if (seconds <= minSeconds) problems.push(`${path}: ${seconds.toFixed(1)} s, expected more than ${minSeconds} s`);
  const blank = [0.25, 0.5, 0.75].filter((f) => (lumaStdDev(path, seconds * f) ?? 0) < BLANK_STDDEV);
  if (blank.length > 0)
    problems.push(`${path}: blank frame at ${blank.map((f) => `${Math.round(f * 100)} %`).join(', ')}`);
  return { seconds, problems };
}

/** Problems with one screenshot: undecodable or blank. */
export function checkScreenshot(path: string): string[] {
  const deviation = lumaStdDev(path);
  if (deviation === undefined) return [`${path}: does not decode`];
  return deviation < BLANK_STDDEV ? [`${path}: blank (luma standard deviation ${deviation.toFixed(1)})`] : [];
}
