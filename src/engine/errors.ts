/**
 * Typed errors shared by every layer. Each carries the Vectorizer.AI error code and HTTP status it
 * maps to (reference §4.2), so the CLI, the HTTP service and the UI report the same thing.
 */

export const ERROR_CODES = {
  missingImage: 1005,
  unreadableImage: 1006,
  imageTooLargeBytes: 1012,
  tooManyPixels: 1013,
  parameterError: 1019,
  outputTooLarge: 1023,
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

/** 400 / 1006: the bytes are not an image we can read (truncated, corrupt, unknown format, 0×0). */
export function unreadableImageError(detail: string): TracelabError {
  return new TracelabError(ERROR_CODES.unreadableImage, 400, `Failed to read the supplied image: ${detail}`);
}

/** 413 / 1013: more pixels than the service accepts at all (it shrinks only up to this size). */
export const MAX_ACCEPTED_PIXELS = 33_554_432;
export function tooManyPixelsError(width: number, height: number): TracelabError {
  const pixels = width * height;
  return new TracelabError(
    ERROR_CODES.tooManyPixels,
    413,
    `Image has too many pixels: ${width}×${height} = ${pixels} px; the maximum is ${MAX_ACCEPTED_PIXELS} px. ` +
      'Accepted images are shrunk to input.max_pixels before tracing; shrink larger images first.',
  );
}

/** 400 / 1019: a parameter is unknown, of the wrong type or out of range. */
export function parameterError(message: string): TracelabError {
  return new TracelabError(ERROR_CODES.parameterError, 400, message);
}

/** The largest PNG result, in pixels (64 MB of RGBA); the reference leaves the number open. */
export const MAX_RESULT_PIXELS = 16_777_216;

/** 400 / 1023: the output options ask for a PNG larger than MAX_RESULT_PIXELS (reference §3.10). */
export function outputTooLargeError(width: number, height: number): TracelabError {
  return new TracelabError(
    ERROR_CODES.outputTooLarge,
    400,
    `The requested PNG would be ${width}×${height} = ${width * height} px; the maximum result size is ${MAX_RESULT_PIXELS} px. ` +
      'Lower output.size.scale, output.size.width/height or output.size.output_dpi.',
  );
}
