#!/usr/bin/env bash
# Everything the test suite needs, then the whole suite. This is README's test command and what
# .ci/run executes on a clean clone (CI=true, no stdin, Node 20 + npm only).
#  1. Debian's Chromium, poppler-utils, Ghostscript and python3-ezdxf for the rendering and
#     reader tests (test tools may not download browsers); redis-server and haproxy for the fleet
#     tests (tests/cli/fleet.test.ts, tests/api/redis-store.test.ts start real ones on loopback);
#  2. npm dependencies (npm install also builds the CLI bundle through `prepare`);
#  3. typecheck + vitest;
#  4. the browser end-to-end checks of the web page (vite build + Debian's Chromium);
#  5. the library from its packed tarball (npm pack → temp project → examples/, Node + Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the reader tests run: Chromium (SVG), poppler (PDF), Ghostscript (EPS), ezdxf (DXF);
# the fleet tests run redis-server and haproxy.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/pdftoppm ] || missing+=(poppler-utils)
[ -x /usr/bin/gs ] || missing+=(ghostscript)
/usr/bin/python3 -c 'import ezdxf' >/dev/null 2>&1 || missing+=(python3-ezdxf)
[ -x /usr/bin/redis-server ] || missing+=(redis-server)
[ -x /usr/sbin/haproxy ] || missing+=(haproxy)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ]; then
    echo "test-all: installing Debian packages: ${missing[*]} (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "test-all: missing Debian packages: ${missing[*]} (sudo apt-get install ${missing[*]})" >&2
    exit 1
  fi
fi

npm install --no-audit --no-fund
npm run build:cli
npm test
npm run test:e2e
npm run test:package
