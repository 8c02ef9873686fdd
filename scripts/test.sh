#!/usr/bin/env bash
# `npm test`'s tests: vitest.config.ts's three lanes side by side. vitest runs one forks pool per
# process, so the `lab` lane (forks) and the `no-lab` lane (a worker thread) run in this process and
# the `own-lab` lane (forks) in a second vitest beside it, its lines prefixed with `[own-lab]`.
# Both share the run's start time (test/support/dist.ts). Exits non-zero if either run failed.
set -uo pipefail
cd "$(dirname "$0")/.."

export OVNK_TEST_RUN_STARTED="${OVNK_TEST_RUN_STARTED:-$(date +%s%3N)}"
vitest=node_modules/.bin/vitest
"$vitest" run --passWithNoTests --project own-lab "$@" > >(sed -u 's/^/[own-lab] /') 2>&1 &
own=$!
trap 'kill -INT "$own" 2>/dev/null' INT TERM
"$vitest" run --passWithNoTests --project lab --project no-lab "$@"
first=$?
wait "$own"
second=$?
[ "$first" -eq 0 ] && [ "$second" -eq 0 ]
