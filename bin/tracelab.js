#!/usr/bin/env node
// Starts the bundled CLI (dist-cli/tracelab.mjs, built from src/cli by scripts/build-cli.mjs).
import { existsSync } from 'node:fs';

const bundle = new URL('../dist-cli/tracelab.mjs', import.meta.url);

if (!existsSync(bundle)) {
  process.stderr.write(
    'tracelab: the CLI is not built (dist-cli/tracelab.mjs is missing); run `npm install` or `npm run build:cli` in the tracelab folder\n',
  );
  process.exit(1);
}

try {
  const { main } = await import(bundle.href);
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`tracelab: error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
}
