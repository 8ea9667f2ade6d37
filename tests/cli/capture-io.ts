/** A CliIo for CLI tests: no stdin, stdout dropped, stderr collected as text. */
import type { CliIo } from '../../src/cli/main.js';

export function captureIo(): CliIo & { stderr: string } {
  const io = {
    stderr: '',
    readStdin: async () => new Uint8Array(),
    writeStdout: async () => undefined,
    writeStderr: (text: string) => void (io.stderr += text),
  };
  return io;
}
