// The package.json a user installs carries no development scripts. `npm pack` / `npm publish` run
// `prepack` (strip: package.json without "scripts", the original kept beside it) and `postpack`
// (restore). Without this, npm 11 warns on install that `prepare` (node scripts/build-cli.mjs, a
// file the package does not ship) is an install script not yet allowed.
//   node scripts/pack-manifest.mjs strip | restore
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const manifest = new URL('../package.json', import.meta.url);
const backup = new URL('../package.json.before-pack', import.meta.url);
const verb = process.argv[2];

// A pack that died between strip and restore left the original beside it: put it back first.
if (existsSync(backup)) renameSync(backup, manifest);
if (verb === 'strip') {
  const text = readFileSync(manifest, 'utf8');
  writeFileSync(backup, text);
  // allowScripts (npm 11) is the project's policy for its own development install, not the user's.
  const { scripts: _scripts, allowScripts: _allowScripts, ...published } = JSON.parse(text);
  writeFileSync(manifest, `${JSON.stringify(published, null, 2)}\n`);
} else if (verb !== 'restore') {
  process.stderr.write('usage: node scripts/pack-manifest.mjs strip | restore\n');
  process.exit(2);
}
