// Groups concurrent submissions into batches: at most `maxInFlight` batches run at once, and
// whatever arrives meanwhile waits and goes out together in the next one. An idle service
// therefore writes each item at once, a busy one writes many per transaction. Each caller's
// promise settles when its batch has finished (for activity: after the commit).
export interface Batcher<I, O> {
  submit(item: I): Promise<O>;
}

export interface BatcherOptions {
  maxBatch: number;
  maxInFlight: number;
}

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/** `run` answers one output per input, in order. */
export function createBatcher<I, O>(run: (items: I[]) => Promise<O[]>, options: BatcherOptions): Batcher<I, O> {
  const queue: Waiting<I, O>[] = [];
  let inFlight = 0;
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    while (inFlight < options.maxInFlight && queue.length > 0) start(queue.splice(0, options.maxBatch));
  };
  // setImmediate: requests parsed in the same turn of the event loop share a batch.
  const schedule = () => {
    if (scheduled || inFlight >= options.maxInFlight || queue.length === 0) return;
    scheduled = true;
    setImmediate(flush);
  };
  const start = (batch: Waiting<I, O>[]) => {
    inFlight++;
    run(batch.map((w) => w.item))
      .then(
        (outputs) => batch.forEach((w, i) => w.resolve(outputs[i]!)),
        (error: unknown) => batch.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        inFlight--;
        schedule();
      });
  };

  return {
    submit: (item) =>
      new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        schedule();
      }),
  };
}
