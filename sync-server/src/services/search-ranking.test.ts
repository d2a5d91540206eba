// The order search answers in, on a fresh database of the run's engine (SQLite or PostgreSQL): an article
// with the words in its title first, then in its tags, then its author, then its text alone; among equals,
// the newest first; and the window: a word in nearly every article is ranked among the newest
// SEARCH_RANK_WINDOW, a rarer word over all of its matches.
import { SEARCH_RANK_WINDOW, SEARCH_RESULT_LIMIT } from '@lectern/shared-schema';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../db/database';
import { newArticle, readerDbPerTest } from '../testing/memory-db';
import { insertArticle } from './articles';
import { searchedIds } from '../testing/searched-ids';

let db: Db;
let reader: string;

readerDbPerTest((fresh) => ({ db, reader } = fresh));

let saved = 0;
/** Saves an article a minute after the one before (so "newest" is well defined) and answers its id. */
async function save(
  fields: { title?: string; author?: string; text?: string },
  tags: string[] = [],
  into: Queryable = db,
) {
  saved += 1;
  const text = fields.text ?? 'Nothing to see here.';
  const article = newArticle(`https://example.org/${saved}`, {
    title: fields.title ?? `Untitled ${saved}`,
    author: fields.author ?? null,
    content: `<p>${text}</p>`,
    content_text: text,
  });
  const { article: written } = await insertArticle(into, reader, article, tags);
  const createdAt = new Date(Date.UTC(2026, 0, 1) + saved * 60_000).toISOString();
  await into.run(sql`UPDATE articles SET created_at = ${createdAt} WHERE id = ${written.id}`);
  return written.id;
}

const search = async (query: string) => await searchedIds(db, reader, query);

describe('search order', () => {
  it('title, then tags, then author, then the text alone; among equals the newest first', async () => {
    const inText = await save({ text: 'A walk past the lighthouse at dusk.' });
    const inAuthor = await save({ author: 'Ada Lighthouse' });
    const inTitle = await save({ title: 'The lighthouse keepers' });
    const inTags = await save({}, ['lighthouse']);
    const inTextNewer = await save({ text: 'Another lighthouse, further north.' });
    await save({ title: 'Unrelated', text: 'Nothing about the sea.' });

    expect(await search('lighthouse')).toEqual([inTitle, inTags, inAuthor, inTextNewer, inText]);
    // The last word typed is a prefix: the same order while typing it.
    expect(await search('lightho')).toEqual([inTitle, inTags, inAuthor, inTextNewer, inText]);
  });

  it('finds with a long last word every word it begins, however many, and after other words', async () => {
    // Longer than the index's longest prefix (6 letters): SQLite reads the words it begins from the index.
    const keeper = await save({ title: 'Lighthousekeeper memoirs', text: 'The harbour at night.' });
    const plural = await save({ text: 'Two lighthouses and a harbour.' });
    const exact = await save({ author: 'Lighthouse Press', text: 'A harbour guide.' });
    await save({ text: 'A lighthou in the harbour.' });
    expect(new Set(await search('lighthous'))).toEqual(new Set([keeper, plural, exact]));
    expect(new Set(await search('harbour lighthous'))).toEqual(new Set([keeper, plural, exact]));
    expect(await search('harbour lighthousekeepe')).toEqual([keeper]);
    expect(await search('lighthousez')).toEqual([]);
    // More words than a prefix stands for: still every one of them.
    const many = [];
    for (let article = 0; article < 10; article += 1) {
      const words = Array.from({ length: 7 }, (_, word) => `breakwater${article}x${word}`);
      many.push(await save({ text: `${words.join(' ')} stand.` }));
    }
    expect(new Set(await search('breakwater'))).toEqual(new Set(many));
    // Beyond ASCII the index folds letters its own way: the prefix as typed, accents or not.
    const accented = await save({ text: 'Réverbère allumé.' });
    expect(await search('reverber')).toEqual([accented]);
    expect(await search('Réverbèr')).toEqual([accented]);
  });

  it('ranks an article holding every word in its title above one holding them in its text', async () => {
    const inText = await save({ title: 'Harbour notes', text: 'The keepers of the lighthouse wrote.' });
    const inTitle = await save({ title: 'Lighthouse keepers', text: 'Nothing else.' });
    expect(await search('lighthouse keepers')).toEqual([inTitle, inText]);
    expect(await search('keepers lighthouse')).toEqual([inTitle, inText]);
  });

  it('ranks a field by the words it holds as words, accents and case folded as the index folds them', async () => {
    // "harbour" is inside "Harbourmasters" but no word of that title: ranked by its text, like the rest.
    const inside = await save({ title: 'Harbourmasters', text: 'The harbour keeper.' });
    const accented = await save({ title: 'Le GARDIEN du Phare', text: 'harbour keeper' });
    const inTitle = await save({ title: 'A harbour keeper', text: 'harbour keeper' });
    const inText = await save({ text: 'harbour keeper' });
    expect(await search('harbour keeper')).toEqual([inTitle, inText, accented, inside]);
    expect(await search('phare gardien')).toEqual([accented]);
    const fold = await save({ title: 'Éléphant de mer', text: 'Nothing else.' });
    const foldInText = await save({ text: 'Un éléphant de mer.' });
    expect(await search('elephant de')).toEqual([fold, foldInText]);
    expect(await search('ÉLÉPHANT')).toEqual([fold, foldInText]);
  });

  it(`ranks a word found everywhere among the newest ${SEARCH_RANK_WINDOW} matches only`, async () => {
    const titled = await save({ title: 'Common word in the title' });
    // Enough newer matches of the word in their text alone to push the titled one out of the window.
    const newer: string[] = [];
    // In one transaction: 500 of them one at a time took seconds on PostgreSQL.
    await db.transaction(async (tx) => {
      for (let i = 0; i < SEARCH_RANK_WINDOW; i += 1) newer.push(await save({ text: `common ${i}` }, [], tx));
    });
    const answer = await search('common');
    expect(answer).toHaveLength(SEARCH_RESULT_LIMIT);
    expect(answer).not.toContain(titled);
    expect(answer).toEqual(newer.slice(-SEARCH_RESULT_LIMIT).reverse());
    // A word of its own is still found, however old its article.
    expect(await search('title')).toEqual([titled]);
  }, 60_000);
});
