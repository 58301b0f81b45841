/**
 * Writes started up to `limit` at a time, so a job reads on while the last ones finish. The first
 * failure is thrown by the next `add` or by `finish`; `settle` waits for every write, failed or not.
 */
export function inFlight(limit: number) {
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  const settle = async () => {
    await Promise.all(running);
  };
  return {
    async add(work: Promise<unknown>) {
      const done = work.then(
        () => undefined,
        (error: unknown) => {
          failure ??= { error };
        },
      );
      running.add(done);
      void done.then(() => running.delete(done));
      if (running.size >= limit) await Promise.race(running);
      if (failure) throw failure.error;
    },
    async finish() {
      await settle();
      if (failure) throw failure.error;
    },
    settle,
  };
}
