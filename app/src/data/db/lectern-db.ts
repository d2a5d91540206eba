// The device's database. Each schema version is listed with its upgrade, from the first one on, and is
// never edited once released: a change of shape is a new entry at the end.
import Dexie, { type DexieOptions, type Table, type Transaction } from 'dexie';
import { tagNameKey } from '@lectern/shared-schema';
import {
  ARTICLE_COUNTS_KEY,
  ARTICLE_COUNTS_TABLE,
  articleCountsMiddleware,
  countArticle,
  noCounts,
} from './article-counts';
import { LIST_KEYS_INDEX, listKeysMiddleware, listKeysOf } from './list-keys';
import { stagedCardsMiddleware } from './staged-cards';
import type { BodyPackRow } from './bodies';
import type {
  ArticleContentRow,
  ArticleCountsRow,
  ArticleRow,
  CardPageIdsRow,
  CardPageRow,
  HighlightRow,
  ListArticleRow,
  ImageFileRow,
  ListRow,
  MetaKey,
  MetaRow,
  MetaValues,
  OfflineImageRow,
  OutboxRow,
  ScreenshotRow,
  SearchIndexPartRow,
  SearchIndexRow,
  TagRow,
} from './rows';

export const DEFAULT_DB_NAME = 'lectern';

/** Bodies read and written at a time when version 11 moves them into `bodies`. */
const BODIES_MOVED_AT_ONCE = 200;

interface SchemaVersion {
  version: number;
  stores: Record<string, string | null>;
  upgrade?: (tx: Transaction) => Promise<void>;
}

export const SCHEMA_VERSIONS: readonly SchemaVersion[] = [
  {
    version: 1,
    stores: {
      articles: 'id, created_at, rev, *tag_keys',
      article_contents: 'id',
      tags: 'id, name_key',
      lists: 'id, created_at',
      list_articles: 'key, list_id, article_id',
      highlights: 'id, article_id, created_at, rev',
      outbox: '++seq, status, *ids',
      screenshots: 'article_id',
      meta: 'key',
    },
  },
  {
    // Tag keys follow shared-schema's tagNameKey (Unicode case folding, NFC), as the server's name_key
    // does: keys written by the older rule (toLowerCase) are computed again.
    version: 2,
    stores: {},
    upgrade: async (tx) => {
      await tx
        .table<TagRow, string>('tags')
        .toCollection()
        .modify((row) => {
          row.name_key = tagNameKey(row.name);
        });
      await tx
        .table<ArticleRow, string>('articles')
        .toCollection()
        .modify((row) => {
          row.tag_keys = row.tags.map(tagNameKey);
        });
    },
  },
  {
    // The images kept for reading offline (data/offline): their states and sizes apart from their bytes.
    version: 3,
    stores: {
      offline_images: 'path, article_id, [state+created_at], created_at',
      image_files: 'path',
    },
  },
  {
    // The article search index as it was last written out (data/search/article-search.ts), so a reload
    // reads it instead of splitting every article's text again. Only added: every other row stays.
    version: 4,
    stores: {
      search_index: 'key',
    },
  },
  {
    // Bodies of a first sync's cards arrive on their own (offline/body-downloads.ts) without touching the
    // article rows, so the dashboard's list doesn't re-read at each batch: search and the offline images
    // follow them by their own rev.
    version: 5,
    stores: {
      article_contents: 'id, rev',
    },
  },
  {
    // The library's counts kept with each write of an article (db/article-counts.ts), filled here from the
    // rows there are; and articles by updated_at, so the reading streak reads only its last days. An
    // upgrade that rewrites articles after this one counts them again: the middleware keeping the counts
    // leaves upgrades alone.
    version: 6,
    stores: {
      articles: 'id, created_at, rev, *tag_keys, updated_at',
      article_counts: 'key',
    },
    upgrade: async (tx) => {
      const counts = noCounts();
      await tx.table<ArticleRow, string>('articles').each((row) => countArticle(counts, row, 1));
      await tx
        .table<ArticleCountsRow, string>(ARTICLE_COUNTS_TABLE)
        .put({ key: ARTICLE_COUNTS_KEY, ...counts });
    },
  },
  {
    // The dashboard's lists read in pages from one index (db/list-keys.ts): each row's keys of every list
    // and order it is in, computed here for the rows there are and by a middleware on every write after.
    version: 7,
    stores: {
      articles: `id, created_at, rev, *tag_keys, updated_at, *${LIST_KEYS_INDEX}`,
    },
    upgrade: async (tx) => {
      await tx
        .table<ArticleRow, string>('articles')
        .toCollection()
        .modify((row) => {
          row.list_keys = listKeysOf(row);
        });
    },
  },
  {
    // A first sync's pages of cards, each staged as one row until its cards are moved into `articles`
    // (db/staged-cards.ts): the whole library is listed long before ten thousand rows are written.
    version: 8,
    stores: {
      card_pages: '++key, *ids',
    },
  },
  {
    // A staged page's ids in a row of their own (db/staged-cards.ts), not a multi-entry index of the page,
    // which cost IndexedDB as much again as the page to write (in a bare page; in a whole first sync the
    // difference was within the benchmark's noise). The pages staged when this opens keep theirs.
    version: 9,
    stores: {
      card_pages: '++key',
      card_page_ids: 'key',
    },
    upgrade: async (tx) => {
      const pages = tx.table<CardPageRow & { ids?: string[] }, number>('card_pages');
      const ids = tx.table<CardPageIdsRow, number>('card_page_ids');
      const staged = await pages.toArray();
      await ids.bulkPut(staged.map((page) => ({ key: page.key!, ids: page.rows.map((row) => row.id) })));
      await pages.toCollection().modify((page) => {
        delete page.ids;
      });
    },
  },
  {
    // The search index's postings in parts of their own (search/stored-index.ts): as one value, putting or
    // reading it held the page for over a second at 10,000 articles. An index stored before is read as it is.
    version: 10,
    stores: {
      search_index_parts: 'key',
    },
  },
  {
    // Bodies keyed by when they were written, found by their article's id through a unique index
    // (db/bodies.ts): keyed by the id, a new device's bodies went into Chromium's on-disk store in no order
    // of their keys, and writing them took half as long again. `rev` orders a rev's rows by seq (the search
    // index steps by it); `[rev+id]` answers the ids written since a rev without reading a body. The rows
    // there are moved over, then the old store goes.
    version: 11,
    stores: {
      article_contents: null,
      bodies: '++seq, &id, rev, [rev+id]',
    },
    upgrade: async (tx) => {
      const before = tx.table<ArticleContentRow, string>('article_contents');
      const bodies = tx.table<ArticleContentRow, number>('bodies');
      // A few hundred at a time: a large library's bodies are never all in memory at once. Ids are never empty.
      for (let after = ''; ;) {
        const rows = await before.where(':id').above(after).limit(BODIES_MOVED_AT_ONCE).toArray();
        if (rows.length === 0) break;
        await bodies.bulkAdd(rows);
        after = rows[rows.length - 1]!.id;
      }
    },
  },
  {
    // Bodies in packs, several to a row (db/bodies.ts): Chromium's on-disk store costs about as much per
    // value as per byte. Each body there is turns into a pack of its own, in place; `ids` (unique, one
    // entry per body) finds a body's pack, and `revIds` answers the ids written since a rev.
    version: 12,
    stores: {
      bodies: '++seq, &*ids, rev, *revIds',
    },
    upgrade: async (tx) => {
      await tx
        .table<ArticleContentRow & { seq: number }, number>('bodies')
        .toCollection()
        .modify((row, ref) => {
          const { seq: _seq, ...body } = row;
          // A body written before revs (version 5) stays out of the revIds index, as it was out of [rev+id].
          const revIds: [number, string][] = body.rev === undefined ? [] : [[body.rev, body.id]];
          const pack: BodyPackRow = {
            seq: row.seq,
            rev: body.rev ?? 0,
            ids: [body.id],
            revIds,
            bodies: [body],
          };
          // The row as it was is replaced whole by its pack.
          (ref as { value: unknown }).value = pack;
        });
    },
  },
];

export class LecternDb extends Dexie {
  // `declare` keeps class-field initialisation from overwriting the tables Dexie sets up.
  declare articles: Table<ArticleRow, string>;
  declare bodies: Table<BodyPackRow, number>;
  declare tags: Table<TagRow, string>;
  declare lists: Table<ListRow, string>;
  declare list_articles: Table<ListArticleRow, string>;
  declare highlights: Table<HighlightRow, string>;
  declare outbox: Table<OutboxRow, number>;
  declare screenshots: Table<ScreenshotRow, string>;
  declare meta: Table<MetaRow, MetaKey>;
  declare offline_images: Table<OfflineImageRow, string>;
  declare image_files: Table<ImageFileRow, string>;
  declare search_index: Table<SearchIndexRow, string>;
  declare search_index_parts: Table<SearchIndexPartRow, string>;
  declare article_counts: Table<ArticleCountsRow, string>;
  declare card_pages: Table<CardPageRow, number>;
  declare card_page_ids: Table<CardPageIdsRow, number>;

  constructor(name: string = DEFAULT_DB_NAME, options?: DexieOptions) {
    // Dexie's cache of live reads' results is off: it copied every result a live read got out of a query
    // (a few hundred rows took 10 to 35 ms of the page, in tasks of over 100 ms while a first sync's cards
    // were moved into rows), and the reads that need the library in memory keep their own (reads/row-cache.ts).
    super(name, { cache: 'disabled', ...options });
    this.use(articleCountsMiddleware);
    this.use(listKeysMiddleware);
    this.use(stagedCardsMiddleware);
    for (const { version, stores, upgrade } of SCHEMA_VERSIONS) {
      const declared = this.version(version).stores(stores);
      if (upgrade) declared.upgrade(upgrade);
    }
  }

  /** Every table holding the user's data: what logout empties. */
  get dataTables(): Table[] {
    return [
      this.articles,
      this.bodies,
      this.tags,
      this.lists,
      this.list_articles,
      this.highlights,
      this.outbox,
      this.screenshots,
      this.meta,
      this.card_pages,
      this.card_page_ids,
    ];
  }

  /**
   * The images kept for reading offline: the user's too, but written apart from the synced tables (the
   * downloader's small writes never wait for, nor hold up, a sync's transaction over `dataTables`).
   */
  get offlineTables(): Table[] {
    return [this.offline_images, this.image_files];
  }

  /** The library's counts kept with each article write; none stored means an empty library. */
  async articleCounts(): Promise<Omit<ArticleCountsRow, 'key'>> {
    const row = await this.article_counts.get(ARTICLE_COUNTS_KEY);
    if (!row) return noCounts();
    const { key: _key, ...counts } = row;
    return counts;
  }

  async getMeta<K extends MetaKey>(key: K): Promise<MetaValues[K] | undefined> {
    const row = await this.meta.get(key);
    // The key decides the value's type: setMeta is the only writer.
    return row?.value as MetaValues[K] | undefined;
  }

  async setMeta<K extends MetaKey>(key: K, value: MetaValues[K]): Promise<void> {
    await this.meta.put({ key, value });
  }

  /**
   * setMeta for work that outlives a session (a download, a scan): written only while the device still
   * holds its signed-in reader, so a task ending after a logout's wipe leaves nothing behind.
   */
  async setMetaWhileSignedIn<K extends MetaKey>(key: K, value: MetaValues[K]): Promise<void> {
    await this.transaction('rw', this.meta, async () => {
      if ((await this.meta.get('user')) !== undefined) await this.setMeta(key, value);
    });
  }

  /** Empties the database in one transaction; open live queries in every tab see it at once. */
  /** Raised by every wipe: what a tab read before one (another user's data) is known to be stale. */
  wipes = 0;

  async wipe(): Promise<void> {
    this.wipes += 1;
    // The search index and the counts are derived from the articles: emptied with them.
    const tables = [
      ...this.dataTables,
      ...this.offlineTables,
      this.search_index,
      this.search_index_parts,
      this.article_counts,
    ];
    await this.transaction('rw', tables, async () => {
      await Promise.all(tables.map((table) => table.clear()));
    });
  }
}
