#!/usr/bin/env bash
# `npm test`'s static steps side by side (the machine has two cores and each step is one
# process): the format check, lint, the build (dist/, which the tests run) and the type check
# of the tests. Prints each step's output once it ends; exits non-zero if any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."

steps=(format:check lint build typecheck)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for step in "${steps[@]}"; do
  (
    start=$SECONDS
    npm run --silent "$step" >"$dir/$step.log" 2>&1
    code=$?
    echo "$code $((SECONDS - start))" >"$dir/$step.status"
  ) &
done
wait

failed=0
for step in "${steps[@]}"; do
  read -r code seconds <"$dir/$step.status"
  if [ "$code" -eq 0 ]; then
    echo "ovnk checks: $step passed in ${seconds} s" >&2
  else
    echo "ovnk checks: $step FAILED (exit $code) in ${seconds} s:" >&2
    cat "$dir/$step.log" >&2
    failed=1
  fi
done
exit "$failed"
