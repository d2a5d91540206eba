// Writes made with no network: they show at once, in the server's shapes, and queue their REST calls.
import { describe, expect, it } from 'vitest';
import { restCallOf } from '../outbox/operations';
import { offlineDevicePerTest } from '../testing/per-test';
import type { TestDevice } from '../testing/test-lectern';

let device: TestDevice;
offlineDevicePerTest((fresh) => (device = fresh));

async function queuedCalls() {
  const rows = await device.lectern.db.outbox.orderBy('seq').toArray();
  return rows.map((row) => {
    const call = restCallOf(row.op);
    return `${call.method} ${call.path}`;
  });
}

describe('saving offline', () => {
  it('shows a placeholder article with the url as its title, pending, and queues the save', async () => {
    const { articles, tags } = device.lectern;
    const { article } = await articles.create({
      url: 'https://example.com/post',
      tags: ['Reading', ' news '],
    });
    expect(article).toMatchObject({
      url: 'https://example.com/post',
      title: 'https://example.com/post',
      article_type: 'web',
      tags: ['news', 'Reading'],
      is_read: false,
      content: null,
      pendingSave: { state: 'saving', error: null },
    });
    const { articles: listed, stats } = await articles.list({ archived: false });
    expect(listed.map((a) => a.id)).toEqual([article.id]);
    expect(stats).toEqual({ total: 1, unread: 1, read: 0, archived: 0, favorites: 0 });
    const { tags: tagList } = await tags.list();
    expect(tagList.map((t) => [t.name, t.article_count])).toEqual([
      ['news', 1],
      ['Reading', 1],
    ]);
    expect(await queuedCalls()).toEqual(['POST /tags', 'POST /tags', 'POST /articles']);
    expect(await device.lectern.sync.hasUnsyncedWrites()).toBe(true);
  });

  it('refuses a URL that is not http(s) before queueing anything', async () => {
    await expect(device.lectern.articles.create({ url: 'ftp://example.com' })).rejects.toThrow(
      'Please enter a valid HTTP or HTTPS URL',
    );
    await expect(device.lectern.articles.create({ url: 'not a url' })).rejects.toThrow(
      'Please enter a valid URL',
    );
    expect(await queuedCalls()).toEqual([]);
  });

  it('keeps a screenshot image in the database until it can be uploaded', async () => {
    const image = new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' });
    const { article } = await device.lectern.articles.createScreenshot({
      image,
      name: 'shot.png',
      tags: ['ocr'],
    });
    expect(article.article_type).toBe('screenshot');
    expect(article.url.startsWith('screenshot://')).toBe(true);
    const stored = await device.lectern.articles.localScreenshot(article.id);
    expect(stored?.type).toBe('image/png');
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71]));
    expect(await queuedCalls()).toEqual(['POST /tags', 'POST /articles/screenshot']);
  });
});

describe('editing offline', () => {
  it('applies flag changes, tags, lists and highlights at once', async () => {
    const { articles, tags, lists, highlights } = device.lectern;
    const { article: first } = await articles.create({ url: 'https://example.com/1' });
    const { article: second } = await articles.create({ url: 'https://example.com/2' });
    await articles.update(first.id, { isRead: true, isFavorite: true });
    const { tag } = await tags.create({ name: 'later' });
    await articles.addTag(second.id, { tagId: tag.id });

    expect((await articles.list({ is_read: true })).articles.map((a) => a.id)).toEqual([first.id]);
    expect((await articles.list({ tag_name: 'LATER' })).articles.map((a) => a.id)).toEqual([second.id]);
    expect((await articles.list()).stats).toEqual({
      total: 2,
      unread: 1,
      read: 1,
      archived: 0,
      favorites: 1,
    });

    const { list } = await lists.create({ name: ' Weekend ', description: '', isPublic: true });
    expect(list).toMatchObject({ name: 'Weekend', description: null, is_public: true, article_count: 0 });
    await lists.addArticle(list.id, { articleId: first.id });
    await lists.addArticle(list.id, { articleId: second.id, position: 0 });
    expect((await lists.get(list.id)).articles.map((a) => a.id)).toEqual([second.id, first.id]);
    await lists.reorder(list.id, { articles: [first.id, second.id] });
    expect((await lists.get(list.id)).articles.map((a) => a.id)).toEqual([first.id, second.id]);
    expect((await lists.list()).lists[0]?.article_count).toBe(2);

    const { highlight } = await highlights.create({
      articleId: first.id,
      highlightedText: 'a passage',
      contextBefore: 'before ',
      contextAfter: ' after',
      positionStart: 10,
      positionEnd: 19,
      color: 'yellow',
    });
    expect(highlight).toMatchObject({ article_title: 'https://example.com/1', color: 'yellow' });
    expect((await articles.get(first.id)).article.highlights_count).toBe(1);
    expect((await highlights.list()).stats).toMatchObject({
      total_highlights: 1,
      articles_with_highlights: 1,
    });

    await articles.remove(first.id);
    expect((await highlights.list()).highlights).toEqual([]);
    expect((await lists.get(list.id)).articles.map((a) => a.id)).toEqual([second.id]);
    expect(await queuedCalls()).toEqual([
      'POST /articles',
      'POST /articles',
      `PUT /articles/${first.id}`,
      'POST /tags',
      `POST /articles/${second.id}/tags`,
      'POST /lists',
      `POST /lists/${list.id}/articles`,
      `POST /lists/${list.id}/articles`,
      `PUT /lists/${list.id}/reorder`,
      'POST /highlights',
      `DELETE /articles/${first.id}`,
    ]);
  });

  it('renames and deletes tags on every article that carries them', async () => {
    const { articles, tags } = device.lectern;
    const { article } = await articles.create({ url: 'https://example.com/1', tags: ['old'] });
    const tagId = (await tags.list()).tags[0]!.id;
    await tags.update(tagId, { name: 'new' });
    expect((await articles.get(article.id)).article.tags).toEqual(['new']);
    await tags.remove(tagId);
    expect((await articles.get(article.id)).article.tags).toEqual([]);
    expect((await tags.list()).tags).toEqual([]);
  });

  it('answers 404 like the server for ids the device does not have', async () => {
    const { articles, lists, highlights } = device.lectern;
    await expect(articles.get('nope')).rejects.toMatchObject({ status: 404, message: 'Article not found' });
    await expect(articles.update('nope', { isRead: true })).rejects.toMatchObject({ status: 404 });
    await expect(lists.get('nope')).rejects.toMatchObject({ status: 404, message: 'Reading list not found' });
    await expect(highlights.remove('nope')).rejects.toMatchObject({ status: 404 });
    expect(await queuedCalls()).toEqual([]);
  });

  it('finds offline articles by title words and tag names, last word as a prefix', async () => {
    const { articles } = device.lectern;
    const { article } = await articles.create({
      url: 'https://example.com/gardening-tips',
      tags: ['Résumé'],
    });
    expect((await articles.search('gardening')).articles.map((a) => a.id)).toEqual([article.id]);
    expect((await articles.search('example garden')).articles.map((a) => a.id)).toEqual([article.id]);
    expect((await articles.search('resume')).articles.map((a) => a.id)).toEqual([article.id]);
    expect((await articles.search('garden example')).articles).toEqual([]);
    await articles.remove(article.id);
    expect((await articles.search('gardening')).articles).toEqual([]);
  });
});
