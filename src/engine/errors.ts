/**
 * Typed errors shared by every layer. Each carries the Vectorizer.AI error code and HTTP status it
 * maps to (reference §4.2), so the CLI, the HTTP service and the UI report the same thing.
 *
 * ERROR_CODES is the one table of error codes: everywhere else a code is written by its name
 * (tests/hygiene/error-codes.test.ts fails on a number). A condition that more than one layer
 * reports has one function here (or in src/api/image-url.ts for image addresses) that makes its
 * error, so the same condition gives the same code, status and message wherever it is found.
 */

export const ERROR_CODES = {
  /** No API code: a failure of the page or the library itself, shown without a number. */
  none: 0,
  /** −1: what the reference has no code for (unknown path, wrong method, internal failure). */
  generic: -1,
  /** −3: the service cannot answer now (shared store unreachable, replica shutting down); retry. */
  unavailable: -3,
  /** −4: storing an image token's record failed; retry. */
  storeFailed: -4,
  /** −10: internal timeout (a trace ran out of time); retry. */
  internalTimeout: -10,
  /**
   * −20 (Tracelab's client, no API code): the connection of a call that may be charged (a paid
   * `/vectorize`, a `/download`) was lost after the request went out; the service may or may not
   * have charged it — check the account before calling again.
   */
  chargeUnknown: -20,
  /** −30 (Tracelab's library, no API code): the tracer was closed (`close()`); make another one. */
  tracerClosed: -30,
  /** 1001: no or malformed credentials, or an unknown API Id. */
  apiIdNotFound: 1001,
  /** 1004: wrong API Secret. */
  apiSecretIncorrect: 1004,
  /** 1005: no image source given. */
  missingImage: 1005,
  /** 1006: the bytes are not an image we can read. */
  unreadableImage: 1006,
  /** 1008: paid modes need an active subscription. */
  noSubscription: 1008,
  /** 1010: the subscription is past due. */
  pastDue: 1010,
  /** 1011: the balance is below the call's cost. */
  outOfCredits: 1011,
  /** 1012: the image (or request body) has too many bytes. */
  imageTooLargeBytes: 1012,
  /** 1013: the image has too many pixels. */
  tooManyPixels: 1013,
  /** 1015: too many requests at once; retry after Retry-After. */
  slowDown: 1015,
  /** 1016: `image` was sent as a text field instead of a file. */
  imageNotAFile: 1016,
  /** 1019: a parameter is unknown, of the wrong type or out of range. */
  parameterError: 1019,
  /** 1020: the image URL answered something other than HTTP 200. */
  urlNotOk: 1020,
  /** 1021: the image URL answered something that is not an image (a web page). */
  urlNotAnImage: 1021,
  /** 1022: the image URL could not be fetched (network, timeout, refused address). */
  urlFetchFailed: 1022,
  /** 1023: the requested PNG result would be too large. */
  outputTooLarge: 1023,
  /** 1024: the image URL is not an http(s) address. */
  urlInvalid: 1024,
  /** 1025: reading an image token's record failed; retry. */
  tokenRetrievalFailed: 1025,
  /** 1026: the image token belongs to another account. */
  tokenOtherAccount: 1026,
  /** 1027: the image token expired (or is unknown or deleted, see storage/errors.ts). */
  tokenExpired: 1027,
  /** 1028: the image token's record is corrupted. */
  tokenCorrupt: 1028,
} as const;

export class TracelabError extends Error {
  readonly code: number;
  readonly status: number;

  constructor(code: number, status: number, message: string) {
    super(message);
    this.name = 'TracelabError';
    this.code = code;
    this.status = status;
  }
}

/** 400 / 1005: no image source (`detail` says which one was expected). */
export function missingImageError(detail: string): TracelabError {
  return new TracelabError(ERROR_CODES.missingImage, 400, `Missing image parameter: ${detail}`);
}

/** 400 / 1006: the bytes are not an image we can read (truncated, corrupt, unknown format, 0×0). */
export function unreadableImageError(detail: string): TracelabError {
  return new TracelabError(ERROR_CODES.unreadableImage, 400, `Failed to read the supplied image: ${detail}`);
}

/** Reference §5.1: the largest image accepted, in bytes (uploads, fetched URLs, stored images; the page applies it too). */
export const MAX_IMAGE_BYTES = 31_457_280;

/** `n` with comma thousands separators in its whole part ("31,457,280", "1,000,000.25"): every number a message shows. */
export function groupDigits(n: number): string {
  const [whole = '', fraction] = String(n).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/**
 * 413 / 1012: `what` ("the uploaded image", "the image at https://…") has `bytes` bytes, more than
 * `max` (default MAX_IMAGE_BYTES); `atLeast` when only a lower bound is known (a download stopped at the cap).
 */
export function imageTooLargeError(what: string, bytes: number, atLeast = false, max = MAX_IMAGE_BYTES): TracelabError {
  return new TracelabError(
    ERROR_CODES.imageTooLargeBytes,
    413,
    `Image too large: ${what} is ${atLeast ? 'more than ' : ''}${groupDigits(bytes)} bytes; the maximum is ${groupDigits(max)} bytes.`,
  );
}

/** Throws imageTooLargeError when `bytes` (the size of `what`) is over `max` (default MAX_IMAGE_BYTES). */
export function checkImageBytes(bytes: number, what: string, max = MAX_IMAGE_BYTES): void {
  if (bytes > max) throw imageTooLargeError(what, bytes, false, max);
}

/** 413 / 1013: more pixels than the service accepts at all (it shrinks only up to this size). */
export const MAX_ACCEPTED_PIXELS = 33_554_432;
/** The advice that ends a tooManyPixelsError message (the playground, which offers the shrink itself, says so instead). */
export const TOO_MANY_PIXELS_ADVICE = 'Accepted images are shrunk to input.max_pixels before tracing; shrink larger images first.';

export function tooManyPixelsError(width: number, height: number): TracelabError {
  const pixels = width * height;
  return new TracelabError(
    ERROR_CODES.tooManyPixels,
    413,
    `Image has too many pixels: ${width}×${height} = ${groupDigits(pixels)} px; the maximum is ${groupDigits(MAX_ACCEPTED_PIXELS)} px. ${TOO_MANY_PIXELS_ADVICE}`,
  );
}

/**
 * The picture size a tooManyPixelsError message names ("8000×8000"), or undefined for any other
 * message: for a caller that has only the message (the playground's worker passes errors on as
 * code and message).
 */
export function tooManyPixelsSize(message: string): { width: number; height: number } | undefined {
  const m = /^Image has too many pixels: (\d+)×(\d+) = /.exec(message);
  return m ? { width: Number(m[1]), height: Number(m[2]) } : undefined;
}

/** 400 / 1019: a parameter is unknown, of the wrong type or out of range. */
export function parameterError(message: string): TracelabError {
  return new TracelabError(ERROR_CODES.parameterError, 400, message);
}

/** A call to a tracer after its `close()` (or one that close() cut short). */
export function tracerClosedError(cause?: unknown): TracelabError {
  const error = new TracelabError(ERROR_CODES.tracerClosed, 503, 'This tracer is closed (close() was called); create another one with createTracer().');
  if (cause !== undefined) Object.defineProperty(error, 'cause', { value: cause, enumerable: false, configurable: true, writable: true });
  return error;
}

/** The largest PNG result, in pixels (64 MB of RGBA); the reference leaves the number open. */
export const MAX_RESULT_PIXELS = 16_777_216;

/** 400 / 1023: the output options ask for a PNG larger than MAX_RESULT_PIXELS (reference §3.10). */
export function outputTooLargeError(width: number, height: number): TracelabError {
  return new TracelabError(
    ERROR_CODES.outputTooLarge,
    400,
    `The requested PNG would be ${width}×${height} = ${groupDigits(width * height)} px; the maximum result size is ${groupDigits(MAX_RESULT_PIXELS)} px. ` +
      'Lower output.size.scale, output.size.width/height or output.size.output_dpi.',
  );
}
