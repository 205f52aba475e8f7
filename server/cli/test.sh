#!/usr/bin/env bash
# The whole test suite: prerequisites, lint, typecheck, unit + integration (vitest), production build, e2e, one recorded demo.
set -euo pipefail
cd "$(dirname "$0")/../.."
export NEXT_TELEMETRY_DISABLED=1 NO_COLOR=1

# The runtime first (package.json engines, the check every CLI makes): on an older Node each step fails its own way.
node --import tsx server/cli/check-node.ts || exit 2

missing=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=("chromium (Debian package 'chromium': apt-get install -y chromium)")
command -v ffmpeg >/dev/null || missing+=("ffmpeg (Debian package 'ffmpeg': apt-get install -y ffmpeg)")
command -v kubectl >/dev/null || missing+=("kubectl (real client-go kubectl 1.27-1.33 on PATH)")
command -v openssl >/dev/null || missing+=("openssl (Debian package 'openssl')")
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=("postgresql (Debian package 'postgresql': the incident-store contract tests start a server)")
command -v htpasswd >/dev/null || missing+=("htpasswd (Debian package 'apache2-utils': the login tests use htpasswd -B files)")
command -v prometheus >/dev/null || missing+=("prometheus (Debian package 'prometheus': apt-get install -y --no-install-recommends prometheus)")
command -v prometheus-alertmanager >/dev/null \
  || missing+=("prometheus-alertmanager (Debian package 'prometheus-alertmanager': apt-get install -y --no-install-recommends prometheus-alertmanager)")
if [ ${#missing[@]} -gt 0 ]; then
  echo "npm test: missing prerequisites:" >&2
  for m in "${missing[@]}"; do echo "  - $m" >&2; done
  echo "Run 'bash .ci/run' (as root) to install them." >&2
  exit 2
fi

step() { echo; echo "==> $*"; }
step "lint";       npx eslint . --max-warnings=0 && npx prettier --check --log-level warn .
step "typecheck";  npx tsc --noEmit
step "unit + integration"; npx vitest run
step "build";      npx next build
step "e2e";        npx playwright test
step "demo (recorded: steady, then checked)"; npm run --silent demo -- --scenario steady
echo; echo "npm test: all steps passed"
