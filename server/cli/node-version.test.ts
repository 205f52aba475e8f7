import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EnginesRangeError, parseMinimumNode, requiredNodeRange, unsupportedNodeMessage } from './node-version';

describe('the Node.js runtime check', () => {
  it('accepts a version at or above the minimum and names the range for one below it', () => {
    expect(unsupportedNodeMessage('24.0.0', '>=24')).toBeUndefined();
    expect(unsupportedNodeMessage('24.21.0', '>=24')).toBeUndefined();
    expect(unsupportedNodeMessage('26.1.0', '>=24.11.1')).toBeUndefined();
    expect(unsupportedNodeMessage('24.11.1', '>=24.11.1')).toBeUndefined();
    expect(unsupportedNodeMessage('24.11.0', '>=24.11.1')).toMatch(
      /needs Node\.js >=24\.11\.1 .* runs on Node\.js 24\.11\.0/,
    );
    expect(unsupportedNodeMessage('24.9.9', '>=24.10')).toBeDefined();
    expect(unsupportedNodeMessage('20.20.2', '>=24')).toBe(
      'update-health needs Node.js >=24 (package.json engines), ' +
        'but runs on Node.js 20.20.2: use a current LTS (README "Runtime"; bash .ci/run installs one)',
    );
  });

  it('refuses a range it cannot read instead of guessing', () => {
    for (const range of ['^24', '24.x', '>=24 <26', '', '>= lts']) {
      expect(() => parseMinimumNode(range)).toThrow(EnginesRangeError);
    }
    expect(() => unsupportedNodeMessage('twenty', '>=24')).toThrow(/cannot read the Node\.js version "twenty"/);
  });

  it('takes the range from package.json engines, which this test run satisfies', () => {
    expect(requiredNodeRange()).toBe(JSON.parse(readFileSync('package.json', 'utf8')).engines.node);
    expect(parseMinimumNode(requiredNodeRange())[0]).toBeGreaterThanOrEqual(24);
    expect(unsupportedNodeMessage(process.versions.node, requiredNodeRange())).toBeUndefined();
  });

  it('stops every CLI of package.json on an older Node.js with one line, before it loads anything else', () => {
    const scripts = Object.values(JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>);
    const entries = [...new Set(scripts.filter((s) => s.startsWith('tsx ')).map((s) => /\s(\S+\.ts)\b/.exec(s)?.[1]))];
    expect(entries).toEqual(
      expect.arrayContaining([
        'server/cli/start.ts',
        'server/cli/sim.ts',
        'server/cli/analyze.ts',
        'server/cli/demo.ts',
        'server/bench/run.ts',
      ]),
    );
    const olderNode = "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'20.20.2'})";
    for (const entry of entries) {
      const result = spawnSync(
        process.execPath,
        ['--conditions=react-server', '--import', olderNode, '--import', 'tsx', entry as string, '--help'],
        { encoding: 'utf8', timeout: 90_000 },
      );
      expect({ entry, status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
        entry,
        status: 1,
        stdout: '',
        stderr: `${unsupportedNodeMessage('20.20.2', requiredNodeRange())}\n`,
      });
    }
  }, 600_000);

  it('stops npm test on an older Node.js with the same line, before its prerequisites or any step', () => {
    const olderNode = "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'20.20.2'})";
    // Were the check missing, the absent browser would stop the script at its prerequisites instead of running it.
    const result = spawnSync('bash', ['server/cli/test.sh'], {
      encoding: 'utf8',
      timeout: 90_000,
      env: { ...process.env, NODE_OPTIONS: `--import ${olderNode}`, CHROMIUM_PATH: '/nonexistent/chromium' },
    });
    expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
      status: 2,
      stdout: '',
      stderr: `${unsupportedNodeMessage('20.20.2', requiredNodeRange())}\n`,
    });
  }, 120_000);
});
