/** Help text; the `--param` list is generated from OPTION_SCHEMA so it never drifts from validation. */

import { isExtensionOption } from '../api/extensions.js';
import { OPTION_GROUPS, OPTION_SCHEMA, describeAllowed, labelWithUnit, type OptionSpec } from '../api/options.js';
import { VERBS } from './args.js';

export const USAGE =
  'tracelab vectorize INPUT -o OUTPUT [--format svg|eps|pdf|dxf|png] [--max-pixels N] [--param name=value]...';

export const BATCH_USAGE = 'tracelab vectorize FILE... | DIR --out-dir OUT [--format F] [--param name=value]... [--jobs N] [--quiet] [--remote [--mode M]]';

export const SERVICE_USAGE = [
  'tracelab vectorize (INPUT | --url U | --base64 FILE | --token T) -o OUTPUT [--mode M] [--retention-days N] [--remote] [...]',
  'tracelab download TOKEN -o OUTPUT [--format F] [--receipt R] [--param name=value]... [--remote]',
  'tracelab delete TOKEN [--remote]',
  'tracelab account [--remote]',
  'tracelab serve [--port N] [--host H] [--store redis://HOST:PORT/DB] [--allow-default-secret]',
];

export function helpText(version: string): string {
  const lines = [
    `tracelab ${version}: trace a bitmap into vector shapes, locally, with Vectorizer.AI API parameters.`,
    '',
    'Usage:',
    `  ${USAGE}`,
    `  ${BATCH_USAGE}`,
    ...SERVICE_USAGE.map((u) => `  ${u}`),
    '  tracelab --help | --version',
    '',
    `Verbs: ${VERBS.join(', ')}.`,
    '  vectorize   trace INPUT with the embedded engine (no account, no tokens). With --mode,',
    '              --retention-days, --url, --base64 or --token the call goes through the local',
    '              /api/v1 service in-process instead (credits, image tokens kept in the data dir);',
    '              with --remote through the HTTP service VECTORIZER_API_URL (may charge credits there).',
    '              With --out-dir: every FILE (a DIR: its image files) into folder OUT, on --jobs worker',
    '              threads (default every core), named after the input; goes on past a bad file,',
    '              prints a summary and exits 2 if any failed. With --remote',
    '              each file is one /vectorize call to that service (e.g. a fleet), --jobs at once (default 5).',
    '  download    fetch the result of a retained image TOKEN again (any output format/options)',
    '  delete      delete a retained image TOKEN; prints {"success":true}',
    '  account     print the account as JSON (plan, state, remaining credits)',
    '  serve       run the local /api/v1 service over HTTP until Ctrl-C (SIGINT/SIGTERM)',
    '',
    'Options:',
    '  INPUT                  image file to trace (PNG, JPEG, ...); - reads standard input',
    '  -o, --output OUTPUT    result file, written atomically; - writes to standard output',
    '  --out-dir OUT          batch: write one result per input into folder OUT (created if missing)',
    '  --jobs N               batch: worker threads (default: the number of cores)',
    '  --quiet                batch: no progress (the summary is still printed)',
    '  --format FORMAT        same as --param output.file_format=FORMAT (default: the extension of -o, else svg)',
    '  --max-pixels N         same as --param input.max_pixels=N',
    '  --param NAME=VALUE     any parameter listed below; repeatable, each NAME at most once',
    '  --mode MODE            production | preview | test | test_preview (service; test modes are free)',
    '  --retention-days N     keep the image N days (0…30) and print its token (service)',
    '  --url URL              vectorize the image at URL (service, image.url)',
    '  --base64 FILE          send FILE as image.base64 (a file of base64 text is sent as is; service)',
    '  --token TOKEN          vectorize a retained image again (service, image.token)',
    '  --receipt RECEIPT      download: the receipt of an earlier preview download',
    '  --remote               use the HTTP service VECTORIZER_API_URL (default the real Vectorizer.AI)',
    '                         with VECTORIZER_API_ID / VECTORIZER_API_SECRET',
    '  --port N               serve: port (default 8787; 0 picks a free one)',
    '  --host H               serve: address to bind (default 127.0.0.1, loopback only); anything else',
    '                         makes the service reachable from other machines, and needs',
    '                         TRACELAB_API_SECRET set (or --allow-default-secret)',
    '  --allow-default-secret serve: start on a non-loopback --host with the default secret anyway',
    '  --store URL            serve: keep images, account and limits in Redis (redis://HOST:PORT/DB),',
    '                         shared by many replicas (default: the data directory; also TRACELAB_REDIS_URL)',
    '  -h, --help             show this help',
    '  --version              print the version',
    '',
    'Service calls print to stderr what the service reports: "tracelab: image token: ...",',
    '  "tracelab: receipt: ...", "tracelab: credits charged: 1.000000", "tracelab: credits calculated: ...".',
    '',
    'Environment:',
    '  TRACELAB_API_ID, TRACELAB_API_SECRET   credentials of the local service (default tracelab / tracelab)',
    '  TRACELAB_DATA_DIR      data of the local service (default $XDG_DATA_HOME/tracelab, else ~/.tracelab):',
    '                         retained images in DIR/images, the account in DIR/account.json, the',
    '                         receipts of upgraded previews in DIR/receipts (download reuses them)',
    '  TRACELAB_ACCOUNT       inline JSON {"subscriptionPlan","subscriptionState","credits"}, or a file',
    '                         holding it, that seeds the',
    '                         account while DIR/account.json does not exist (else TRACELAB_PLAN,',
    '                         TRACELAB_STATE, TRACELAB_CREDITS; default 100 credits)',
    '  VECTORIZER_API_URL, VECTORIZER_API_ID, VECTORIZER_API_SECRET   the service --remote talks to;',
    '                         without --remote it is not used (tracing stays local and free)',
    '  TRACELAB_STATS=1       vectorize (one input, embedded engine): print on stderr one line',
    '                         tracelab-stats {"profile","profileReason","colors","regions","shapes",',
    '                         "shapesUnder1px2","shapesUnder4px2","smallShapeKinds"}: the kind of',
    '                         picture the engine traced it as (tracelab.profile) and why; shapes',
    '                         whose written outline encloses under 1 and 4 px², and why the',
    '                         shapes under 4 px are left (dots, shades, specks)',
    '',
    'Notes:',
    '  Without a service flag, mode is accepted by the embedded engine but ignored (no billing,',
    '  preview or watermark there), and so is policy.retention_days; --mode uses the service.',
    '  Values are checked exactly as the API checks them: booleans are true/false, numbers are',
    '  decimal, names are case-sensitive.',
    '',
    'Exit status: 0 success; 1 usage error; 2 error, reported as',
    '  "tracelab: error CODE: message" with the API error code (e.g. 1006 unreadable image,',
    '  1019 bad parameter, 1001 wrong credentials, 1011 out of credits); 3 serve could not start',
    '  for a reason a restart does not fix (its port is taken, …): supervisors stop instead of retrying.',
    '',
    'Parameters (--param NAME=VALUE):',
  ];
  for (const group of OPTION_GROUPS) {
    const specs = OPTION_SCHEMA.filter((s) => s.group === group.id && s.endpoints.includes('vectorize'));
    if (specs.length === 0) continue;
    lines.push('', `  ${group.title}`);
    if (specs.every((s) => isExtensionOption(s.name))) {
      lines.push('    Tracelab only: the embedded engine and Tracelab servers use them; --remote to the real', '    Vectorizer.AI leaves them out (one "Not sent to Vectorizer.AI" note on stderr).');
    }
    for (const spec of specs) {
      lines.push(`    ${spec.name}  ${describeAllowed(spec)}; default ${describeDefault(spec)}`);
      lines.push(`        ${labelWithUnit(spec)} — ${spec.hint}`);
    }
  }
  return lines.join('\n') + '\n';
}

function describeDefault(spec: OptionSpec): string {
  if (spec.default === undefined) return 'none';
  if (spec.default === '') return 'empty';
  return String(spec.default);
}
