/**
 * `tracelab/client`: the HTTP client of the Vectorizer.AI API (src/api/client.ts) — the real
 * service, a `tracelab serve`, or a handler from `tracelab/handler` in the same process (pass
 * `fetch: (input, init) => handler(new Request(input, init))`). HTTP Basic auth, the §5.3
 * back-off on 429/503 and the rules on which failures are retried. Runs in browsers and Node.
 * Tracelab extension options (`tracelab.*`) are left out of calls to the real service
 * (`realService`, guessed from the host) and sent to Tracelab servers.
 */
export {
  createClient,
  ApiClientError,
  DEFAULT_BASE_URL,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_BACKOFF_STEP_MS,
  type ApiClient,
  type ClientOptions,
  type CallOptions,
  type VectorizeInput,
  type Fields,
  type DownloadFields,
  type DottedOutputOptions,
  type FieldValue,
  type FileResult,
  type AccountStatus,
  type FetchLike,
  type Clock,
} from '../api/client.js';
export { isExtensionOption, isRealServiceUrl, forRealService, notSentNote } from '../api/extensions.js';
export { runBatch, type BatchOptions, type BatchResult } from '../api/client-batch.js';
export { TracelabError } from '../engine/errors.js';
