// How long a test waits for a live query's next answer: the unit projects run at once, and under that load
// Dexie's answer to a write can take well over the second `expect.poll` waits by default (the first answer
// of article-pages.test.ts's live window, over its library of several hundred articles, took over 5 s in
// one whole `npm test` on 2 December). A poll ends as soon as the answer is there.
export const LIVE_ANSWER = { timeout: 15_000 };
