// playwright-core has no retrying assertions: this polls until a check holds (the app syncs in the
// background). A check holds when it neither throws (a failed `expect`) nor answers false or null
// ("not yet"); whatever else it answers is handed back.
export async function eventually<T>(
  check: () => Promise<T> | T,
  timeoutMs = 15_000,
): Promise<Exclude<T, false | null>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let failure: unknown;
    try {
      const value = await check();
      if (value !== false && value !== null) return value as Exclude<T, false | null>;
      failure = new Error(`timed out; last answer: ${String(value)}`);
    } catch (error) {
      failure = error;
    }
    if (Date.now() > deadline) throw failure;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
