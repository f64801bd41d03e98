#!/usr/bin/env bash
# Runs a command with the project's toolchain first on PATH, after making sure it is installed.
set -euo pipefail
# shellcheck source=setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
exec "$@"
