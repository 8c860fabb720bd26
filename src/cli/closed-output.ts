/**
 * Lets the CLI outlive the reader of its output: `pesakit review list --json | head -1`,
 * `pesakit openapi | head`, a cron pipeline whose consumer died. The next write then fails with
 * EPIPE (and later ones with ERR_STREAM_DESTROYED), which Node raises as an unhandled 'error'
 * event: a stack trace and exit 1 — in the middle of a reconcile pass, leaving its leases to
 * expire. A Unix tool stops writing and finishes its work: nobody reads the output any more,
 * but the exit code still tells cron what happened. Any other stream error is still thrown.
 */
export function tolerateClosedOutput(stream: NodeJS.WritableStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    throw error;
  });
}
