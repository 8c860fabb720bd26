/**
 * A closed reader (`| head`) must not crash the CLI mid-pass: EPIPE stops the output, the work
 * and the exit code go on. Any other stream error is still thrown.
 */
export function tolerateClosedOutput(stream: NodeJS.WritableStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    throw error;
  });
}
