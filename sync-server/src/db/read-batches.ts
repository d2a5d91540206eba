// Reads asked for at about the same time, answered by one query. On PostgreSQL each query costs the node a
// write to the database's socket that wakes its backend, the largest item of GET /articles/{id} in a CPU
// profile: under load, requests that arrive in the same turn of the event loop, or while earlier batches
// are out, share one query instead of one each (the node's CPU a request fell by about a quarter at 10
// concurrent readers, docs/performance.md). A lone request goes at once, alone (after the current turn's
// other I/O callbacks: microseconds).

/** How many inputs one query answers at most, and how many such queries are out at once at most. */
export interface ReadBatchLimits {
  maxBatch: number;
  maxInFlight: number;
}

const DEFAULT_LIMITS: ReadBatchLimits = { maxBatch: 64, maxInFlight: 2 };

interface Waiting<In, Out> {
  input: In;
  resolve: (output: Out) => void;
  reject: (error: unknown) => void;
}

/**
 * A function answering one input, that asks `readAll` for the inputs waiting together: `readAll` answers
 * one output per input, in their order. A failed query fails only the asks it held.
 */
export function batchedReads<In, Out>(
  readAll: (inputs: readonly In[]) => Promise<readonly Out[]>,
  limits: ReadBatchLimits = DEFAULT_LIMITS,
): (input: In) => Promise<Out> {
  const waiting: Waiting<In, Out>[] = [];
  let inFlight = 0;
  let scheduled = false;

  const run = async (batch: Waiting<In, Out>[]) => {
    try {
      const outputs = await readAll(batch.map((ask) => ask.input));
      if (outputs.length !== batch.length)
        throw new Error(`A batched read answered ${outputs.length} rows for ${batch.length} inputs`);
      batch.forEach((ask, index) => ask.resolve(outputs[index] as Out));
    } catch (error) {
      for (const ask of batch) ask.reject(error);
    } finally {
      inFlight -= 1;
      flush();
    }
  };

  function flush() {
    scheduled = false;
    while (waiting.length > 0 && inFlight < limits.maxInFlight) {
      inFlight += 1;
      void run(waiting.splice(0, limits.maxBatch));
    }
  }

  return (input) =>
    new Promise<Out>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      // With every query out, the asks wait for the first to come back (flush runs then).
      if (!scheduled && inFlight < limits.maxInFlight) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
