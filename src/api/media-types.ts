/** Response media type and file extension of each `output.file_format` (reference §2.1.2, §3.1). */

import type { FileFormat } from '../formats/types.js';

export interface FormatMedia {
  readonly contentType: string;
  /** Without the dot. */
  readonly extension: string;
}

export const FILE_FORMAT_MEDIA: Readonly<Record<FileFormat, FormatMedia>> = {
  svg: { contentType: 'image/svg+xml', extension: 'svg' },
  eps: { contentType: 'application/postscript', extension: 'eps' },
  pdf: { contentType: 'application/pdf', extension: 'pdf' },
  dxf: { contentType: 'application/dxf', extension: 'dxf' },
  png: { contentType: 'image/png', extension: 'png' },
};
