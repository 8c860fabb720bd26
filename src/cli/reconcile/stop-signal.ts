/**
 * Resolves on the first SIGINT or SIGTERM. The handlers are installed at once: until a listener
 * exists a signal gets the OS default and kills the process in the middle of a write. A second
 * signal while closing forces the exit (someone means it).
 */
export function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    let received = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (received) {
        process.stderr.write(`pesakit: second ${signal}, exiting without closing cleanly\n`);
        process.exit(1);
      }
      received = true;
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
