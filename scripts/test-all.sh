#!/usr/bin/env bash
# Everything the test suite needs, then the whole suite. This is README's test command and what
# .ci/run executes on a clean clone (CI=true, no stdin, Node 20 + npm only).
#  1. Debian's Chromium for the browser rendering tests (test tools may not download browsers);
#  2. npm dependencies (npm install also builds the CLI bundle through `prepare`);
#  3. typecheck + vitest;
#  4. the browser end-to-end checks of the web page (vite build + Debian's Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ]; then
    echo "test-all: installing Debian's chromium (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "test-all: /usr/bin/chromium is missing; install Debian's chromium package (sudo apt-get install chromium)" >&2
    exit 1
  fi
fi

npm install --no-audit --no-fund
npm run build:cli
npm test
npm run test:e2e
