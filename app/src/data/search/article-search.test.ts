// The article search index is kept up to date by the writes themselves: whatever is saved, tagged,
// renamed, deleted or pulled by a sync is found (or no longer found) at the next query, having indexed
// only the rows that changed; and a reload reads the index back instead of building it again.
import type { ArticleResponse } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { worldPerFile } from '../testing/per-test';
import { signedInDevice, startWorld, type World } from '../testing/server-fixture';
import { storeBodies } from '../offline/body-answers';
import { bodyOf, deleteBodies } from '../db/bodies';
import { createArticleSearch } from './article-search';

let world: World;
worldPerFile(startWorld, (started) => (world = started));

/** A second index over the same database: what a reload of the page, or another tab, starts with. */
function reloadedSearch(device: Awaited<ReturnType<typeof signedInDevice>>) {
  return createArticleSearch(device.lectern.db, { pause: async () => {} });
}

async function titlesFound(device: Awaited<ReturnType<typeof signedInDevice>>, q: string) {
  const { articles } = await device.lectern.articles.search(q);
  return articles.map((article) => article.title).sort();
}

describe('article search index', () => {
  it('finds what is saved, tagged, renamed and deleted, indexing only the rows that changed', async () => {
    const device = await signedInDevice(world);
    const { articles, tags } = device.lectern;
    const search = reloadedSearch(device);
    const { article: bread } = await articles.create({ url: world.site.url('/baking') });
    await articles.create({ url: world.site.url('/astronomy') });
    expect(await search.search('sourdough starter')).toEqual([bread.id]);
    expect(await titlesFound(device, 'sourdough starter')).toEqual(['Sourdough Bread Basics']);
    expect(search.stats.rowsIndexed).toBe(2);

    // A tag is searchable on the article that carries it; one more row taken in, not the library.
    const { tag } = await tags.create({ name: 'Quasarfield' });
    await articles.addTag(bread.id, { tagId: tag.id });
    expect(await search.search('quasarf')).toEqual([bread.id]);
    expect(await titlesFound(device, 'quasarfield')).toEqual(['Sourdough Bread Basics']);
    expect(search.stats.rowsIndexed).toBe(3);

    // Renamed: found by its new name only.
    await tags.update(tag.id, { name: 'Nebulawood' });
    expect(await search.search('quasarfield')).toEqual([]);
    expect(await search.search('nebulawood')).toEqual([bread.id]);
    expect(await titlesFound(device, 'quasarfield')).toEqual([]);
    expect(search.stats.rowsIndexed).toBe(4);

    // A flag changes nothing searchable: still found, with nothing indexed again.
    await articles.update(bread.id, { isFavorite: true });
    expect(await search.search('kneading')).toEqual([bread.id]);

    await articles.remove(bread.id);
    expect(await titlesFound(device, 'sourdough')).toEqual([]);
    expect(await titlesFound(device, 'saturn')).toEqual(['Observing Saturn Tonight']);
    await device.lectern.close();
  });

  it('answers a followed search again when a result changes or goes, or a new article matches', async () => {
    const device = await signedInDevice(world);
    const { articles } = device.lectern;
    const { article: bread } = await articles.create({ url: world.site.url('/baking') });
    type Found = { id: string; is_favorite: boolean }[];
    /** A query followed as the dashboard follows it, and a wait for an answer of it. */
    const follow = (q: string) => {
      const answers: Found[] = [];
      const subscription = device.lectern
        .liveQuery(() => articles.search(q))
        .subscribe({ next: (found) => answers.push(found.articles) });
      const answered = async (check: (found: Found) => boolean) => {
        for (let waited = 0; !(answers.length > 0 && check(answers.at(-1)!)); waited += 10) {
          if (waited > 5_000) throw new Error(`"${q}" answered ${JSON.stringify(answers.at(-1))}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      };
      return { answered, stop: () => subscription.unsubscribe() };
    };
    const basics = follow('basics');
    const saturn = follow('saturn');
    try {
      await basics.answered((found) => found.length === 1 && !found[0]!.is_favorite);
      await saturn.answered((found) => found.length === 0);
      await articles.update(bread.id, { isFavorite: true });
      await basics.answered((found) => found.length === 1 && found[0]!.is_favorite);
      // A catch-up of the index under way elsewhere (the page's idle one) when the new article is written.
      void articles.prepareSearch();
      const { article: sky } = await articles.create({ url: world.site.url('/astronomy') });
      await saturn.answered((found) => found.length === 1 && found[0]!.id === sky.id);
      await articles.remove(bread.id);
      await basics.answered((found) => found.length === 0);
    } finally {
      basics.stop();
      saturn.stop();
      await device.lectern.close();
    }
  });

  it('finds an article another device saved once a sync has pulled it', async () => {
    const phone = await signedInDevice(world);
    const laptop = await signedInDevice(world, phone.credentials, 'login');
    const search = reloadedSearch(laptop);
    await laptop.lectern.articles.create({ url: world.site.url('/astronomy') });
    expect(await search.search('planetary')).toHaveLength(1);
    const indexed = search.stats.rowsIndexed;

    const saved = await fetch(`${world.server.url}/api/articles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${phone.auth.token}` },
      body: JSON.stringify({ url: world.site.url('/gardening') }),
    });
    const { article } = (await saved.json()) as ArticleResponse;
    expect(await titlesFound(laptop, 'winter gardening')).toEqual([]);
    await laptop.lectern.sync.syncNow();
    expect(await search.search('winter gardening')).toEqual([article.id]);
    expect(await titlesFound(laptop, 'winter gardening')).toEqual(['Winter Gardening Guide']);
    // Only what the sync wrote was taken in (the pulled article; its own save may come back with it).
    expect(search.stats.rowsIndexed - indexed).toBeLessThanOrEqual(2);
    await phone.lectern.close();
    await laptop.lectern.close();
  });

  it('reads its index back after a reload instead of building it again, and goes with a logout', async () => {
    const device = await signedInDevice(world);
    const { articles } = device.lectern;
    const { article: stars } = await articles.create({ url: world.site.url('/astronomy') });
    const { article: bread } = await articles.create({ url: world.site.url('/baking') });
    const first = reloadedSearch(device);
    expect(await first.search('telescopes')).toEqual([stars.id]);
    await first.flush();
    expect(first.stats.saves).toBe(1);

    const reloaded = reloadedSearch(device);
    expect(await reloaded.search('telescopes')).toEqual([stars.id]);
    expect(await reloaded.search('crusty bread')).toEqual([bread.id]);
    expect(reloaded.stats).toMatchObject({ loadedFromSnapshot: 1, rowsIndexed: 0 });

    // Written while the page was closed: taken in on top of the stored index, and nothing else.
    await articles.remove(stars.id);
    const { article: garden } = await articles.create({ url: world.site.url('/gardening') });
    const again = reloadedSearch(device);
    expect(await again.search('gardening')).toEqual([garden.id]);
    expect(again.stats).toMatchObject({ loadedFromSnapshot: 1, rowsIndexed: 1 });
    // The deleted article is left out the next time the index is written out.
    await again.flush();
    const stored = await device.lectern.db.search_index.get('articles');
    expect(stored?.ids?.sort()).toEqual([bread.id, garden.id].sort());

    await device.lectern.auth.logout();
    expect(await device.lectern.db.search_index.count()).toBe(0);
    expect(await device.lectern.db.search_index_parts.count()).toBe(0);
    await device.lectern.close();
  });

  it('finds an article by its body once the body comes after its card, and keeps that after a reload', async () => {
    const device = await signedInDevice(world);
    const { db } = device.lectern;
    const { article: bread } = await device.lectern.articles.create({ url: world.site.url('/baking') });
    const body = await bodyOf(db, bread.id);
    // As a new device has it after the cards: the article's row, no body yet.
    await deleteBodies(db, [bread.id]);
    const first = reloadedSearch(device);
    expect(await first.search('kneading')).toEqual([]);
    expect(await first.search('sourdough')).toEqual([bread.id]); // its title

    // The body arrives on its own (the article row is not written again): found by its words now.
    await storeBodies(db, [{ id: bread.id, content: body?.content ?? null }]);
    expect(await first.search('kneading')).toEqual([bread.id]);
    await first.flush();

    const reloaded = reloadedSearch(device);
    expect(await reloaded.search('kneading')).toEqual([bread.id]);
    expect(reloaded.stats).toMatchObject({ loadedFromSnapshot: 1, rowsIndexed: 0 });
    await device.lectern.close();
  });
});
