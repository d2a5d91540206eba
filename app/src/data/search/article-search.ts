// Offline article search: the server's full-text rules (every word must occur, the last one also as a
// prefix, over title, description, author, url, body text and tag names) on an in-memory index kept up to
// date incrementally: every write of an article, local or pulled by a sync, raises its `rev`, and the index
// takes in exactly the rows written since it last looked (from any tab). The index is written out to
// IndexedDB once many rows were gone through since it last was, or when the page is hidden, so a reload
// reads it back and only takes in what changed since, instead of reading and splitting the text of the
// whole library again. A few saves or flag changes are not worth writing the whole index out for (at 50,000
// articles a task of over 100 ms, and a collection of its garbage twice as long): the next start takes them
// in again in a few milliseconds. The device keeps each body's HTML only: its text is made here, and only
// when the body is new to the index (its signature is of the HTML, not of the text). Once in use, the index
// also takes in what a download pass stored (keepUp), in idle moments, so the first search after a new
// device's bodies came has nothing left to take in; a catch-up a search waits for gives the page back a
// turn at a time, never holding it for the seconds thousands of bodies take.
import { htmlToText, SEARCH_FIELD_WEIGHTS, searchTerms } from '@lectern/shared-schema';
import Dexie from 'dexie';
import type { LecternDb } from '../db/lectern-db';
import { hashOf } from '../db/local-store';
import type { ArticleRow } from '../db/rows';
import { yieldTask, yieldToUi } from '../offline/yield-to-ui';
import { rowsOrStagedCards, stagedCards, stagedTables } from '../db/staged-cards';
import { firstSyncPagesStored } from '../sync/first-sync-pace';
import { markSync } from '../sync/sync-marks';
import { rowsAfter, type RevPosition } from '../db/rev-steps';
import { anyBodyAbove, bodiesOf, haveBodies } from '../db/bodies';
import { commitStoredIndex, readStoredIndex, writeIndexParts } from './stored-index';
import { TermIndex, type IndexedField, type TermIndexSnapshot } from './term-index';

/** Rows taken in per step: small enough that one step never holds the page for long. */
const CATCH_UP_CHUNK = 100;
/**
 * Packs of bodies read per step of the bodies' pass (db/bodies.ts: about 100 K characters each): read by a
 * range, they come in one answer, made ready on the page's thread in one task (about 40 ms a megabyte in
 * Chromium).
 */
const BODY_PACKS_CHUNK = 6;
/** Staged cards taken in per step. */
const STAGED_CHUNK = 500;
/** Body HTML made into text and indexed between two pauses of a catch-up: 30 to 45 ms in Chromium here. */
const BODY_SLICE_CHARS = 256 * 1024;
/** How long a slice of merging the index's segments for a write-out goes on before the page is given back. */
const SAVE_SLICE_MS = 8;
/** How long the index stays unchanged before it is written out. */
export const SAVE_DELAY_MS = 2_000;
/** Rows (and bodies) gone through since the index was stored that make it worth writing out again. */
export const SAVE_AFTER_ROWS = 500;

function fieldsOf(row: ArticleRow, content: string | null): IndexedField[] {
  const text = htmlToText(content);
  return [
    { text: row.title, weight: SEARCH_FIELD_WEIGHTS.title },
    { text: row.description ?? '', weight: SEARCH_FIELD_WEIGHTS.description },
    { text: row.author ?? '', weight: SEARCH_FIELD_WEIGHTS.author },
    { text: row.url, weight: SEARCH_FIELD_WEIGHTS.url },
    { text, weight: SEARCH_FIELD_WEIGHTS.text },
    { text: row.tags.join(' '), weight: SEARCH_FIELD_WEIGHTS.tags },
  ];
}

/**
 * Changes when anything searchable changes; a flag or a highlight count doesn't. Of the body's HTML, so an
 * unchanged body is known as such without making its text.
 */
function signatureOf(row: ArticleRow, body: BodyMark): string {
  return JSON.stringify([row.title, row.description, row.author, row.url, row.tags, ...body]);
}

/** What a signature holds of a body: its length and hash ([0, 0]: none). */
type BodyMark = readonly [chars: number, hash: number];

const bodyMarkOf = (content: string | null): BodyMark => [content?.length ?? 0, hashOf(content)];

/** Whether the body marked was one (not none). */
const markedBody = ([chars, hash]: BodyMark): boolean => chars > 0 || hash !== 0;

export interface ArticleSearchOptions {
  /** Gives the page back between steps of a catch-up nobody waits for (the browser's idle time by default). */
  pause?: () => Promise<void>;
  /** Gives the page back for one turn between steps of a catch-up a search waits for (a task by default). */
  turn?: () => Promise<void>;
  saveDelayMs?: number;
  /** How long a write-out merges the index's segments before giving the page back (tests: 0, each slice). */
  saveSliceMs?: number;
  /**
   * Calls `save` whenever the page is hidden (the page's visibility by default): what was gone through
   * since the index was stored is written out then, out of the reader's sight. Answers how to stop.
   */
  whenHidden?: (save: () => void) => () => void;
}

function pageHidden(save: () => void): () => void {
  if (typeof document === 'undefined') return () => {};
  const onChange = () => {
    if (document.visibilityState === 'hidden') save();
  };
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}

export function createArticleSearch(db: LecternDb, options: ArticleSearchOptions = {}) {
  const pause = options.pause ?? yieldToUi;
  const turn = options.turn ?? yieldTask;
  /** Searches waiting on the catch-up under way: it then goes on at once between steps, not in idle time. */
  let waiting = 0;
  /**
   * Between two steps of a catch-up, always: the page's input and frames come first. Idle time when
   * nobody waits for it, after a first sync's pages of cards (and a few milliseconds of merging the
   * index's segments before it), one turn when a search does (typed letters still answered at once).
   */
  const breathe = () => {
    if (waiting > 0) return turn();
    index.tidy();
    // Nor between a first sync's pages of cards (see prepare).
    return firstSyncPagesStored(db).then(pause);
  };
  const saveDelayMs = options.saveDelayMs ?? SAVE_DELAY_MS;
  const saveSliceMs = options.saveSliceMs ?? SAVE_SLICE_MS;
  let index = new TermIndex();
  let indexedRev = 0;
  /** Bodies arrive on their own after a first sync's cards (offline/body-downloads.ts), with their own rev. */
  let indexedBodyRev = 0;
  /** The staged cards last gone through (a new set each time a page is staged or moved). */
  let stagedTaken: ReadonlyMap<string, ArticleRow> | null = null;
  /** The user whose articles `index` holds; undefined before the first look. */
  let owner: string | undefined;
  let loaded = false;
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | null = null;
  let stopped = false;
  /** Rows and bodies gone through (indexed or found unchanged) since the index was read back or written out. */
  let sinceStored = 0;
  /**
   * Id → the body each article was taken in with since the index was read back or built: the rows' pass
   * knows a row unchanged by its signature without reading its body again (bodiesUnchanged).
   */
  const bodyTaken = new Map<string, BodyMark>();
  /**
   * Read-backs, documents indexed, writes and catch-ups: a reload must not build the index again, nor a
   * query with nothing new read what changed.
   */
  const stats = { loadedFromSnapshot: 0, rowsIndexed: 0, saves: 0, catchUps: 0, catchUpsEnded: 0 };

  /** A new user (or none) on this device: start from that user's stored index, if there is one. */
  async function ensureOwner(): Promise<void> {
    const user = (await db.getMeta('user'))?.id ?? '';
    if (loaded && user === owner) return;
    index = new TermIndex();
    indexedRev = 0;
    indexedBodyRev = 0;
    stagedTaken = null;
    sinceStored = 0;
    bodyTaken.clear();
    owner = user;
    loaded = true;
    markSync('index-read', 'start');
    const saved = await readStoredIndex(db, user).finally(() => markSync('index-read', 'end'));
    if (saved) {
      index = saved.index;
      indexedRev = saved.rev;
      indexedBodyRev = saved.bodyRev;
      stats.loadedFromSnapshot += 1;
    }
  }

  /** Answers the characters of HTML made into text and indexed (none when it was indexed as it is). */
  function take(row: ArticleRow, content: string | null): number {
    // A row rewritten for a flag or a count has the same signature: nothing to index, nothing to write out.
    sinceStored += 1;
    const body = bodyMarkOf(content);
    bodyTaken.set(row.id, body);
    if (!index.set(row.id, () => fieldsOf(row, content), signatureOf(row, body))) return 0;
    stats.rowsIndexed += 1;
    return content?.length ?? 0;
  }

  /**
   * Takes in rows with their bodies (null: none on the device), giving the page back every
   * BODY_SLICE_CHARS of HTML: a hundred long reads are seconds of work.
   */
  async function takeAll(
    rows: readonly (ArticleRow | undefined)[],
    contents: readonly (string | null | undefined)[],
  ): Promise<void> {
    let chars = 0;
    for (let i = 0; i < rows.length; i += 1) {
      const row = rows[i];
      if (!row) continue;
      chars += take(row, contents[i] ?? null);
      if (chars > BODY_SLICE_CHARS) {
        chars = 0;
        await breathe();
      }
    }
  }

  /**
   * The next bodies written since `from`, with their articles as they are now: one snapshot, so a body
   * dropped or an article written again after it was read shows as a new rev, read again later.
   */
  function bodiesWithArticles(from: RevPosition) {
    return Dexie.ignoreTransaction(() =>
      db.transaction('r', [db.bodies, db.articles, ...stagedTables(db)], async () => {
        const { rows: packs, next, done } = await rowsAfter(db.bodies, from, BODY_PACKS_CHUNK);
        const contents = packs.flatMap((pack) => pack.bodies);
        const rows = await rowsOrStagedCards(
          db,
          contents.map((content) => content.id),
        );
        return { contents, rows, next, done };
      }),
    );
  }

  /**
   * The ids of these rows the index holds as they are with the body it took in with them, that body still
   * on the device (or still none), read from the bodies' id index alone. A body written since then is past
   * indexedBodyRev (the bodies' pass takes it in), so one still there is the one taken: reading it again
   * would change nothing. A first sync's cards moved into rows, each rewritten with the body it came
   * with, are found so without reading ten thousand bodies again.
   */
  async function bodiesUnchanged(rows: readonly ArticleRow[]): Promise<Set<string>> {
    const held = rows.filter((row) => {
      const body = bodyTaken.get(row.id);
      return body !== undefined && index.holds(row.id, signatureOf(row, body));
    });
    if (held.length === 0) return new Set();
    const present = await haveBodies(
      db,
      held.map((row) => row.id),
    );
    return new Set(
      held.filter((row, i) => present[i] === markedBody(bodyTaken.get(row.id)!)).map((row) => row.id),
    );
  }

  /**
   * Takes in every body written since the last look with its article, then every article written since
   * that was not taken in with its body, a few at a time. `stagedRead` is the staged cards of a first sync,
   * if any, read beside the rest (a search has read them already).
   */
  async function catchUp(stagedRead = stagedCards(db)): Promise<void> {
    stats.catchUps += 1;
    markSync('index', 'start');
    stagedRead.catch(() => undefined);
    await ensureOwner();
    // Bodies first, each with its article: a body read here is not read again for its row below. In steps
    // by (rev, seq): a write's rows share its rev, and a step may end among them.
    /** The rev of each article row taken in with its body here: the rows' pass needn't read that body again. */
    const takenWithBody = new Map<string, number>();
    let bodiesAt: RevPosition = { rev: indexedBodyRev, afterKey: null };
    for (;;) {
      const { contents, rows, next, done } = await bodiesWithArticles(bodiesAt);
      for (const row of rows) if (row?.rev !== undefined) takenWithBody.set(row.id, row.rev);
      await takeAll(
        rows,
        contents.map((content) => content.content),
      );
      bodiesAt = next;
      if (done) break;
      await breathe();
    }
    indexedBodyRev = bodiesAt.rev;
    let rowsAt: RevPosition = { rev: indexedRev, afterKey: null };
    for (;;) {
      const { rows, next, done } = await rowsAfter(db.articles, rowsAt, CATCH_UP_CHUNK);
      // A row as the bodies' pass took it in (the same rev) was taken with its body then, and a body
      // written since is past indexedBodyRev: the next catch-up reads it. Any other row is read with its body.
      const written = rows.filter((row) => takenWithBody.get(row.id) !== row.rev);
      const unchanged = await bodiesUnchanged(written);
      sinceStored += unchanged.size;
      const changed = written.filter((row) => !unchanged.has(row.id));
      const contents = await bodiesOf(
        db,
        changed.map((row) => row.id),
      );
      await takeAll(
        changed,
        contents.map((content) => content?.content),
      );
      rowsAt = next;
      if (done) break;
      await breathe();
    }
    // Only once every row up to it is in: a rev part-read is never taken for read.
    indexedRev = rowsAt.rev;
    // A first sync's cards still staged (db/staged-cards.ts) are found too, without their body until it
    // comes; each set of staged cards is gone through once.
    const staged = await stagedRead;
    if (staged && staged !== stagedTaken) {
      let taken = 0;
      for (const card of staged.values()) {
        if (!index.has(card.id)) take(card, null);
        if (++taken % STAGED_CHUNK === 0) await breathe();
      }
      stagedTaken = staged;
    }
    stats.catchUpsEnded += 1;
    markSync('index', 'end');
    // The merges of the index's segments still to do, whoever asked for this catch-up (a search's makes
    // none while it waits).
    tidyInIdle();
    if (sinceStored >= SAVE_AFTER_ROWS) scheduleSave();
  }

  /**
   * Whether nothing was written since the index last looked (by this tab or another; a new user's rows
   * too, as revs go on from the clock across a wipe) and no cards were newly staged: then the index
   * answers as it is, without the catch-up's reads one after the other. Read in the caller's context, so
   * a live query runs again on the next article or body written.
   */
  async function nothingNew(stagedRead: ReturnType<typeof stagedCards>): Promise<boolean> {
    const [rows, bodies, staged] = await Promise.all([
      db.articles.where('rev').above(indexedRev).count(),
      anyBodyAbove(db, indexedBodyRev),
      stagedRead,
    ]);
    return rows === 0 && !bodies && (staged === null || staged === stagedTaken);
  }

  /** One catch-up at a time: a search waits for the one under way rather than reading the same rows. */
  function caughtUp(stagedRead?: ReturnType<typeof stagedCards>): Promise<void> {
    running ??= catchUp(stagedRead).finally(() => {
      running = null;
    });
    return running;
  }

  /**
   * A search waits for a catch-up, which then goes on without waiting for idle time. Its turns take the
   * caller's later reads out of its live query (the browser's promises carry no Dexie context); what it
   * must be told of is watched by the check it read first (search()).
   */
  async function awaitedBySearch(done: Promise<unknown>): Promise<void> {
    waiting += 1;
    try {
      await done;
    } finally {
      waiting -= 1;
    }
  }

  let tidying = false;

  /** Merges the index's segments a few milliseconds in each idle moment until none is left to merge. */
  function tidyInIdle(): void {
    if (tidying || stopped) return;
    tidying = true;
    void (async () => {
      try {
        while (!stopped && index.tidy()) await pause();
      } finally {
        tidying = false;
      }
    })().catch(() => undefined);
  }

  /** Raised by each reason to take writes in without a search (keepUp): a pass sees what was there at its start. */
  let upkeepWanted = 0;
  let upkeep: Promise<void> | null = null;

  /**
   * Takes in what was written since the index last looked, in idle moments, once the index is in use (read
   * back or built): after a new device's bodies came, the first search has nothing left to take in.
   */
  function keepUp(): void {
    if (!loaded || stopped) return;
    upkeepWanted += 1;
    upkeep ??= (async () => {
      try {
        for (;;) {
          const seen = upkeepWanted;
          await pause();
          if (stopped) return;
          // One under way (a search's) may have gone past the bodies before the last of them were written.
          const joined = running !== null;
          await caughtUp();
          if (upkeepWanted === seen && !joined) return;
        }
      } finally {
        upkeep = null;
      }
    })().catch(() => {
      // The database closed (logout, page unload): the next search or start catches up.
    });
  }

  function cancelScheduledSave(): void {
    if (saveTimer !== undefined) clearTimeout(saveTimer);
    saveTimer = undefined;
  }

  /** Writes the index out now, in the background: at once (`hurry`) when the page is going out of sight. */
  function saveNow(hurry = false): void {
    cancelScheduledSave();
    // The one under way hurries too.
    if (hurry) hurrySave = true;
    // Nothing gone through since (one under way when this was asked for wrote it all): nothing to write.
    void saveInTurn(() => sinceStored > 0, hurry).catch(() => {
      // The database closed (logout, page unload): the next session catches up from the last save.
    });
  }

  function scheduleSave(): void {
    if (stopped) return;
    cancelScheduledSave();
    saveTimer = setTimeout(() => saveNow(), saveDelayMs);
  }

  const stopWatchingHidden = (options.whenHidden ?? pageHidden)(() => {
    if (!stopped && sinceStored > 0) saveNow(true);
  });

  /** The write-out under way, if any; a write-out asked for meanwhile follows it. */
  let saving: Promise<void> = Promise.resolve();
  /** The write-out under way goes on without pauses: the page is hidden, nobody waits for its frames. */
  let hurrySave = false;

  /** The ids of the articles on the device, rows and staged cards: read in a transaction with articles. */
  async function presentIds(): Promise<Set<string>> {
    const [rows, staged] = await Promise.all([db.articles.toCollection().primaryKeys(), stagedCards(db)]);
    const present = new Set(rows);
    for (const id of staged?.keys() ?? []) present.add(id);
    return present;
  }

  /** save() once the write-out under way is done, if `wanted` still says so then. */
  function saveInTurn(wanted = () => true, hurry = false): Promise<void> {
    saving = saving.catch(() => undefined).then(() => (wanted() ? save(hurry) : undefined));
    return saving;
  }

  /**
   * Writes the index out, articles deleted meanwhile left out, unless the device changed hands. Its segments
   * are merged into one a slice at a time, in idle moments, before the write: at once, that took seconds of
   * the page at 10,000 articles. The index's revs are noted when the merge starts, between two catch-ups,
   * so what it takes in meanwhile is read again after a reload, as any write since a save is.
   */
  async function save(hurry = false): Promise<void> {
    if (hurry) hurrySave = true;
    /** Between two slices of the write-out: the page goes first, unless it is hidden. */
    const between = () => (hurrySave ? Promise.resolve() : pause());
    let started = false;
    try {
      // Articles deleted since the index last looked are dropped first, so the write-out holds none of them.
      await db.transaction('r', [db.articles, ...stagedTables(db)], async () => {
        const present = await presentIds();
        for (const id of index.documentIds()) {
          if (present.has(id)) continue;
          index.remove(id);
          bodyTaken.delete(id);
        }
      });
      while (running) await running;
      const user = owner;
      const rev = indexedRev;
      const bodyRev = indexedBodyRev;
      const taken = sinceStored;
      if (user === undefined || user === '') return;
      markSync('index-save', 'start');
      started = true;
      const steps = index.snapshotSteps();
      let sliceFrom = performance.now();
      let made: TermIndexSnapshot;
      for (;;) {
        const step = steps.next();
        if (step.done) {
          made = step.value;
          break;
        }
        if (performance.now() - sliceFrom >= saveSliceMs) {
          await between();
          sliceFrom = performance.now();
        }
      }
      await between();
      const head = await writeIndexParts(db, made, { rev, bodyRev, user }, between);
      if (!head) return;
      // Articles in the scope only to be read: what is deleted is read in the same moment as it is left out.
      const tables = [db.search_index, db.search_index_parts, db.meta, db.articles, ...stagedTables(db)];
      await db.transaction('rw', tables, async () => {
        const mine = (await db.getMeta('user'))?.id === user;
        if (mine) {
          const present = await presentIds();
          // Deleted while the snapshot was made: left out of it too (its postings are skipped once read back).
          head.ids.forEach((id, doc) => {
            if (id !== '' && !present.has(id)) head.ids[doc] = '';
          });
        }
        if (!(await commitStoredIndex(db, head, mine))) return;
        // What was gone through after the snapshot's start is not in it.
        sinceStored = Math.max(0, sinceStored - taken);
        stats.saves += 1;
      });
    } finally {
      hurrySave = false;
      if (started) markSync('index-save', 'end');
    }
  }

  return {
    /** Ids of the matching articles, best match first: the first `limit` of them. */
    async search(query: string, limit = Infinity): Promise<string[]> {
      if (searchTerms(query).length === 0) return [];
      // Asked first, in the caller's context (a live query): awaiting a catch-up that another caller
      // started leaves that context, and the live query would not be told of the next article or body
      // written. What these ranges hold now is what the catch-up takes in.
      const stagedRead = stagedCards(db);
      const fresh = nothingNew(stagedRead);
      if (!loaded || running) {
        // A catch-up is due whatever the check says: both at once, not one after the other.
        await awaitedBySearch(Promise.all([caughtUp(stagedRead), fresh]));
      } else if (!(await fresh)) await awaitedBySearch(caughtUp(stagedRead));
      return index.search(query, limit);
    },
    /**
     * The best matches as the index holds them now, answered at once, and beside them `fresh`: whether
     * nothing was written since the index last looked (almost always so), read as search() reads it, so a
     * caller can read the matches' rows meanwhile instead of after. When `fresh` answers false, ask
     * search(). Null while the index isn't read back yet or a catch-up is under way. `staged` is the
     * staged cards the check read, for the caller's rows.
     */
    peek(
      query: string,
      limit = Infinity,
    ): { ids: string[]; fresh: Promise<boolean>; staged: ReturnType<typeof stagedCards> } | null {
      if (!loaded || running) return null;
      // Asked first, in the caller's context (a live query), as in search().
      const staged = stagedCards(db);
      const fresh = nothingNew(staged);
      return { ids: searchTerms(query).length === 0 ? [] : index.search(query, limit), fresh, staged };
    },
    /**
     * Reads the stored index and takes in what changed since, in idle moments: before the first query. Not
     * while a first sync stores its pages of cards: the index would take in each page's cards in the
     * moments between them (about 100 ms of the page's thread at 10,000 articles), not after.
     */
    prepare: async () => {
      await firstSyncPagesStored(db);
      await caughtUp();
    },
    keepUp,
    /** Writes the index out now (tests; the app waits for a quiet moment). */
    async flush(): Promise<void> {
      cancelScheduledSave();
      await caughtUp();
      await saveInTurn();
    },
    /** Forgets an article found deleted. */
    forget: (id: string) => {
      index.remove(id);
      bodyTaken.delete(id);
    },
    /** No write-out after this (the database is closing). */
    stop(): void {
      cancelScheduledSave();
      stopped = true;
      stopWatchingHidden();
    },
    stats,
  };
}

export type ArticleSearch = ReturnType<typeof createArticleSearch>;
