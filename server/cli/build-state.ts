/**
 * When the production bundle must be (re)built: no build in NEXT_DIST_DIR (default `.next`), or sources and
 * configuration changed since it was made. Shared by `npm start` and `npm run demo`.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when `root` has no production build, or one older than its sources or configuration. */
export function needsBuild(root: string): boolean {
  const buildId = join(root, process.env.NEXT_DIST_DIR || '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  const sources = ['app', 'components', 'lib', 'server', 'public'].filter((dir) => existsSync(join(root, dir)));
  const configs = ['package.json', 'next.config.ts', 'tsconfig.json'].filter((file) => existsSync(join(root, file)));
  return (
    sources.some((dir) => newestMtime(join(root, dir)) > built) ||
    configs.some((file) => statSync(join(root, file)).mtimeMs > built)
  );
}
