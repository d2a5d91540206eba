// The benchmark library: a seeded, repeatable reader's library that looks like one brought from years of
// Pocket or Instapaper. Bodies have a median of 25 KB of HTML with a long tail up to 500 KB, a few hundred
// tags are used with a Zipf-like skew, one article in ten has a highlight, dates spread over ten years and
// titles come in several languages. Articles are drawn one after another from one seeded stream, so the
// first 5,000 of a 50,000-article library are the 5,000-article library: a benchmark grows one library
// instead of seeding each size again.
//
// Seeding goes through the real services (insertArticle with its tags, then createHighlight) inside one
// transaction per batch, so every row, index, full-text row and change-feed row is what the server itself
// writes. The only thing set by SQL is each article's dates and flags, in the same transaction, so the
// change feed records the article once, with those values (db/change-set.ts records state at commit).
// growLibrary writes into a database opened by seed-library.ts's seedDatabase, like every other bench's seed.
// Its images are settled (seed-library.ts: settleImages, markImageBackfillDone).
import type { Db } from '../../sync-server/src/db/database';
import { insertArticle } from '../../sync-server/src/services/articles';
import { createHighlight } from '../../sync-server/src/services/highlights';
import { markImageBackfillDone, settleImages } from './seed-library';
import { prose, seededRandom, vocabulary, zipfSampler } from './seed-text';
import { eq } from 'drizzle-orm';

export const BENCH_VOCABULARY_SIZE = 30_000;
/** The most frequent words are like 'the' and 'of': nobody searches for them. */
export const BENCH_STOPWORDS = 150;
const MEDIAN_BODY_BYTES = 25 * 1024;
const MAX_BODY_BYTES = 500 * 1024;
const MIN_BODY_BYTES = 1024;
const TAG_COUNT = 300;
const TEN_YEARS_MS = 10 * 365.25 * 24 * 3600 * 1000;
/** The library's newest save; fixed, so every run sees the same dates. */
const NEWEST_SAVE = Date.parse('2026-06-01T12:00:00.000Z');
const PARAGRAPH_POOL = 4_000;
const SEED_BATCH = 500;

/** Title words in several languages and scripts, so sorting, search folding and JSON escaping see them. */
const TITLE_WORDS: Record<string, readonly string[]> = {
  en: ['the', 'future', 'of', 'cities', 'why', 'we', 'read', 'slowly', 'notes', 'on', 'design', 'memory'],
  fr: ['le', 'café', 'des', 'idées', 'écrire', 'à', 'la', 'main', 'été', 'forêt', 'naïve', 'cœur'],
  de: ['über', 'die', 'Straße', 'Größe', 'Bücher', 'lesen', 'Mädchen', 'schön', 'Wald', 'Frühling'],
  es: ['el', 'niño', 'mañana', 'corazón', 'canción', 'años', 'ciudad', 'lectura', 'señal', 'pequeño'],
  ja: ['東京', 'の', '読書', '記録', '未来', 'について', '考える', '夏', '時間', '言葉'],
  zh: ['城市', '的', '未来', '阅读', '笔记', '设计', '记忆', '时间', '语言', '故事'],
  ru: ['будущее', 'городов', 'чтение', 'заметки', 'о', 'памяти', 'время', 'язык', 'лес', 'книга'],
  ar: ['مستقبل', 'المدن', 'القراءة', 'ملاحظات', 'حول', 'الذاكرة', 'الوقت', 'اللغة', 'كتاب'],
};
const LANGUAGES = Object.keys(TITLE_WORDS);
const SITES = ['example.com', 'news.example.org', 'blog.example.net', 'longreads.example', 'journal.example'];

export interface BenchArticle {
  id: string;
  url: string;
  title: string;
  description: string;
  author: string;
  image_url: string | null;
  site_name: string;
  language: string;
  content: string;
  content_text: string;
  reading_time: number;
  tags: string[];
  created_at: string;
  is_read: boolean;
  is_favorite: boolean;
  is_archived: boolean;
  /** One article in ten: a passage of its text. */
  highlight: string | null;
  highlight_id: string;
}

/** A standard normal draw (Box–Muller) from the seeded stream. */
function normal(random: () => number): number {
  const u = Math.max(random(), Number.EPSILON);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** An id from the seeded stream, shaped like newId's UUIDs, so a library's ids are the same every run. */
function seededId(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/**
 * The articles of one seeded library, in the order they are saved. Bodies are paragraphs drawn from a
 * pool written in a Zipf-distributed vocabulary, each with a few words of its own, so word frequencies stay
 * skewed like real prose while 50,000 bodies (about 1.5 GB of HTML) generate in seconds.
 */
export function* benchArticles(seed: number): Generator<BenchArticle> {
  const random = seededRandom(seed);
  const words = vocabulary(BENCH_VOCABULARY_SIZE, seededRandom(seed));
  const sampleWord = zipfSampler(words, random);
  const paragraphs = Array.from({ length: PARAGRAPH_POOL }, () => prose(sampleWord, 300 + random() * 900));
  const tagNames = vocabulary(TAG_COUNT, seededRandom(seed + 1)).map((word, rank) =>
    rank % 7 === 0 ? `${word} reads` : word,
  );
  const sampleTag = zipfSampler(tagNames, random);
  for (let index = 0; ; index += 1) {
    // Log-normal sizes around the median; one article in 400 is a long read from the tail up to 500 KB.
    const tail = random() < 1 / 400;
    const target = tail
      ? 200 * 1024 + random() * (MAX_BODY_BYTES - 200 * 1024)
      : Math.min(
          MAX_BODY_BYTES,
          Math.max(MIN_BODY_BYTES, MEDIAN_BODY_BYTES * Math.exp(0.6 * normal(random))),
        );
    const html: string[] = [];
    const text: string[] = [];
    let bytes = 0;
    while (bytes < target) {
      const own = prose(sampleWord, 40);
      const paragraph = `${paragraphs[Math.floor(random() * PARAGRAPH_POOL)] ?? ''} ${own}`;
      const heading = html.length % 12 === 0;
      const piece = heading
        ? `<h2>${own}</h2><p>${paragraph}</p>`
        : html.length % 5 === 2
          ? `<p>${paragraph} <a href="https://example.com/ref/${index}">${own}</a></p>`
          : `<p>${paragraph}</p>`;
      html.push(piece);
      text.push(heading ? `${own}\n${paragraph}` : paragraph);
      bytes += piece.length;
    }
    const contentText = text.join('\n');
    const language = LANGUAGES[Math.floor(random() ** 2 * LANGUAGES.length)] ?? 'en';
    const titleWords = TITLE_WORDS[language] ?? [];
    const title = Array.from(
      { length: 3 + Math.floor(random() * 6) },
      () => titleWords[Math.floor(random() * titleWords.length)] ?? '',
    )
      .concat(prose(sampleWord, 12))
      .join(language === 'ja' || language === 'zh' ? '' : ' ');
    const tags = new Set<string>();
    const tagCount = Math.floor(random() * random() * 6);
    while (tags.size < tagCount) tags.add(sampleTag());
    const site = SITES[index % SITES.length] ?? 'example.com';
    // Older saves are rarer than newer ones: a library grows.
    const age = TEN_YEARS_MS * random() ** 1.5;
    const wordCount = Math.round(contentText.length / 7);
    const highlightStart = Math.floor(random() * Math.max(1, contentText.length - 200));
    yield {
      id: seededId(random),
      url: `https://${site}/${index.toString(36)}/${encodeURIComponent(words[index % words.length] ?? 'a')}`,
      title,
      description: prose(sampleWord, 80 + random() * 120),
      author: prose(sampleWord, 14),
      image_url: random() < 0.6 ? `https://${site}/images/${index}.jpg` : null,
      site_name: site,
      language,
      content: html.join('\n'),
      content_text: contentText,
      reading_time: Math.max(1, Math.round(wordCount / 200)),
      tags: [...tags],
      created_at: new Date(NEWEST_SAVE - age).toISOString(),
      is_read: random() < 0.4,
      is_favorite: random() < 0.05,
      is_archived: random() < 0.3,
      highlight: index % 10 === 3 ? contentText.slice(highlightStart, highlightStart + 120).trim() : null,
      highlight_id: seededId(random),
    };
  }
}

/** Where one user's library stands: the stream it is drawn from and how many are saved so far. */
export interface BenchLibrary {
  userId: string;
  articles: Generator<BenchArticle>;
  saved: number;
  /** The ids saved, in order. */
  ids: string[];
}

export function benchLibrary(userId: string, seed: number): BenchLibrary {
  return { userId, articles: benchArticles(seed), saved: 0, ids: [] };
}

/**
 * Saves the library's next articles until it holds `count`, through the real services, one transaction
 * per batch of SEED_BATCH. `onBatch` hears the count after each batch (for progress lines).
 */
export async function growLibrary(
  db: Db,
  library: BenchLibrary,
  count: number,
  onBatch?: (saved: number) => void,
) {
  await markImageBackfillDone(db, new Date(NEWEST_SAVE).toISOString());
  while (library.saved < count) {
    const batchEnd = Math.min(count, library.saved + SEED_BATCH);
    await db.transaction(async (tx) => {
      for (; library.saved < batchEnd; library.saved += 1) {
        const next = library.articles.next().value as BenchArticle;
        const { article } = await insertArticle(
          tx,
          library.userId,
          {
            id: next.id,
            url: next.url,
            title: next.title,
            description: next.description,
            author: next.author,
            image_url: next.image_url,
            screenshot_url: null,
            article_type: 'web',
            content: next.content,
            content_text: next.content_text,
            excerpt: next.description.slice(0, 200),
            published_date: next.created_at.slice(0, 10),
            site_name: next.site_name,
            language: next.language,
            reading_time: next.reading_time,
          },
          next.tags,
        );
        await settleImages(tx, article.id);
        const { articles } = tx.tables;
        await tx.orm
          .update(articles)
          .set({
            createdAt: next.created_at,
            updatedAt: next.created_at,
            isRead: next.is_read,
            isFavorite: next.is_favorite,
            isArchived: next.is_archived,
            readingProgress: next.is_read ? 1 : 0,
          })
          .where(eq(articles.id, article.id));
        if (next.highlight && next.highlight.length > 0)
          await createHighlight(tx, library.userId, {
            id: next.highlight_id,
            articleId: article.id,
            highlightedText: next.highlight,
            positionStart: 0,
            positionEnd: next.highlight.length,
          });
        library.ids.push(article.id);
      }
    });
    onBatch?.(library.saved);
  }
}

/** The words the library's bodies are written in (same seed), the most common left out: what readers search. */
export function searchableWords(seed: number): string[] {
  return vocabulary(BENCH_VOCABULARY_SIZE, seededRandom(seed)).slice(BENCH_STOPWORDS);
}

/**
 * What readers type into search over the library of `librarySeed`, drawn the same way on every run and
 * every engine: a third whole words, a third a word and one being typed, a third a word being typed.
 */
export function benchSearchQueries(librarySeed: number, querySeed: number, count: number): string[] {
  const sampleWord = zipfSampler(searchableWords(librarySeed), seededRandom(querySeed));
  return Array.from({ length: count }, (_, i) =>
    i % 3 === 0
      ? sampleWord()
      : i % 3 === 1
        ? `${sampleWord()} ${sampleWord().slice(0, 3)}`
        : sampleWord().slice(0, 4),
  );
}
