#!/usr/bin/env bash
# Runs a command with the project's toolchain first on PATH, after making sure it is installed.
# `--test-tools` first: also what only the tests use (PostgreSQL, shellcheck, actionlint).
set -euo pipefail
if [ "${1:-}" = "--test-tools" ]; then
  PM_SETUP_TEST_TOOLS=1
  shift
fi
# shellcheck source=setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
exec "$@"
