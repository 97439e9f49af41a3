#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's main job: build the library (and, when present, the bare-metal
# images) for the D1 and print the figures of the build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/bench.sh
