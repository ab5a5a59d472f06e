// Groups concurrent submissions into batches: at most `maxInFlight` batches run at once, and
// whatever arrives meanwhile waits and goes out together in the next one. An idle service
// therefore writes each item at once, a busy one writes many per transaction: the window of a
// batch is the time the batches before it take, a few milliseconds. Each caller's promise
// settles when its batch has finished (for activity: after the commit).
//
// The waiting line is bounded, by count and by weight (for activity: bytes of request body), so
// that a database slower than the arrivals costs a refusal (BatcherOverloaded, which the caller
// answers with its own overload error) instead of memory without end.
export interface Batcher<I, O> {
  /** Rejects at once with BatcherOverloaded when the waiting line is full. */
  submit(item: I): Promise<O>;
  /** Items waiting for a batch and their weight (not those in flight). */
  queued(): { items: number; weight: number };
}

export interface BatcherOptions {
  maxBatch: number;
  maxInFlight: number;
  /** Items that may wait for a batch; one more is refused. */
  maxQueued: number;
  /** Total weight that may wait; an item that would pass it is refused unless nothing waits. */
  maxQueuedWeight?: number;
}

/** The waiting line is full: the caller should answer "try again shortly". */
export class BatcherOverloaded extends Error {
  constructor() {
    super('too many submissions are waiting for a batch');
    this.name = 'BatcherOverloaded';
  }
}

interface Waiting<I, O> {
  item: I;
  weight: number;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/** `run` answers one output per input, in order. `weigh` gives an item's weight (default 1). */
export function createBatcher<I, O>(run: (items: I[]) => Promise<O[]>, options: BatcherOptions, weigh: (item: I) => number = () => 1): Batcher<I, O> {
  const queue: Waiting<I, O>[] = [];
  let queuedWeight = 0;
  let inFlight = 0;
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    while (inFlight < options.maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, options.maxBatch);
      for (const w of batch) queuedWeight -= w.weight;
      start(batch);
    }
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
  const full = (weight: number) =>
    queue.length >= options.maxQueued || (options.maxQueuedWeight !== undefined && queue.length > 0 && queuedWeight + weight > options.maxQueuedWeight);

  return {
    submit: (item) => {
      const weight = weigh(item);
      if (full(weight)) return Promise.reject(new BatcherOverloaded());
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, weight, resolve, reject });
        queuedWeight += weight;
        schedule();
      });
    },
    queued: () => ({ items: queue.length, weight: queuedWeight }),
  };
}
