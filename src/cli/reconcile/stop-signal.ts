/** Resolves on the first SIGINT/SIGTERM (handlers installed at once); a second forces the exit. */
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
