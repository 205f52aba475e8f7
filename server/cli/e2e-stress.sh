#!/usr/bin/env bash
# The e2e suite with two busy-loop CPU hogs on the machine: every wait must be on a condition the user would see,
# never on timing. Arguments go to playwright (e.g. a spec and --repeat-each=3). Exits with the suite's code.
set -uo pipefail
cd "$(dirname "$0")/../.."
hogs=()
for _ in 1 2; do node -e 'for(;;){}' & hogs+=($!); done
trap 'kill "${hogs[@]}" 2>/dev/null' EXIT
npx playwright test "$@"
