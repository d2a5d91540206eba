// How long a test waits for a live query's next answer: the unit projects run at once, and under that load
// Dexie's answer to a write can take well over the second `expect.poll` waits by default.
export const LIVE_ANSWER = { timeout: 5_000 };
