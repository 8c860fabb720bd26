/** A closed reader (`| head`) stops the output, not the work or the exit code; other errors throw. */
export function tolerateClosedOutput(stream: NodeJS.WritableStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    throw error;
  });
}
