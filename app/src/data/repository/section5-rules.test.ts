// Spec section 5's rules that the server checks, refused on the device too (offline, with the server's
// status and text), so that no write waits in the outbox only to be refused later.
import { FIELD_ERRORS } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../api/http-client';
import { offlineDevicePerTest } from '../testing/per-test';
import type { TestDevice } from '../testing/test-lectern';

let device: TestDevice;
offlineDevicePerTest((fresh) => (device = fresh));

async function refusal(write: Promise<unknown>): Promise<[number, string | null]> {
  const error: unknown = await write.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return [error.status, error.serverMessage];
}

const outboxSize = () => device.lectern.db.outbox.count();

describe('a highlight needs 3 characters after trimming', () => {
  it('refuses a shorter one on create and on update, and queues nothing', async () => {
    const { articles, highlights } = device.lectern;
    const { article } = await articles.create({ url: 'https://example.com/post' });
    const queued = await outboxSize();
    for (const text of ['ab', ' ab ', '  \n a \t ', '   ', '', '😀a']) {
      const create = highlights.create({
        articleId: article.id,
        highlightedText: text,
        positionStart: 0,
        positionEnd: text.length,
      });
      expect(await refusal(create), JSON.stringify(text)).toEqual([
        400,
        'A highlight needs at least 3 characters (not counting spaces at either end)',
      ]);
    }
    expect(await outboxSize()).toBe(queued);
    expect((await highlights.byArticle(article.id)).highlights).toEqual([]);

    const { highlight } = await highlights.create({
      articleId: article.id,
      highlightedText: ' abc ',
      positionStart: 0,
      positionEnd: 5,
    });
    expect(highlight.highlighted_text).toBe(' abc ');
    const afterCreate = await outboxSize();
    expect(await refusal(highlights.update(highlight.id, { highlightedText: ' ab ' }))).toEqual([
      400,
      FIELD_ERRORS.highlightedText,
    ]);
    expect(await outboxSize()).toBe(afterCreate);
    expect((await highlights.get(highlight.id)).highlight.highlighted_text).toBe(' abc ');
  });
});

describe("a list's name is required", () => {
  it('refuses a blank name on create and on rename, and queues nothing', async () => {
    const { lists } = device.lectern;
    for (const name of ['', '   ', '\t\n']) {
      expect(await refusal(lists.create({ name }))).toEqual([400, 'Please enter a name']);
    }
    expect((await lists.list()).lists).toEqual([]);
    expect(await outboxSize()).toBe(0);

    const { list } = await lists.create({ name: ' Weekend ', description: '  ' });
    expect(list).toMatchObject({ name: 'Weekend', description: null, is_public: true });
    expect(await refusal(lists.update(list.id, { name: ' ' }))).toEqual([400, 'Please enter a name']);
    expect((await lists.get(list.id)).list.name).toBe('Weekend');
    expect(await outboxSize()).toBe(1);
  });
});

describe("a tag's name is required", () => {
  it('refuses a blank name on create and on rename, and queues nothing', async () => {
    const { tags } = device.lectern;
    expect(await refusal(tags.create({ name: '  ' }))).toEqual([400, 'Please enter a name']);
    expect((await tags.list()).tags).toEqual([]);
    const { tag } = await tags.create({ name: 'Home' });
    expect(await refusal(tags.update(tag.id, { name: '' }))).toEqual([400, 'Please enter a name']);
    expect((await tags.list()).tags.map((t) => t.name)).toEqual(['Home']);
    expect(await outboxSize()).toBe(1);
  });
});

describe('the email must be an email address', () => {
  it('refuses sign-up and sign-in with the server’s status and text, before any request', async () => {
    const { auth } = device.lectern;
    const body = { email: 'ada@localhost', password: 'long enough password', username: 'ada' };
    expect(await refusal(auth.register(body))).toEqual([400, 'Please enter a valid email address']);
    expect(await refusal(auth.login({ email: body.email, password: body.password }))).toEqual([
      400,
      'Please enter a valid email address',
    ]);
    // A well-formed address does go out, and meets the cut network.
    await expect(auth.login({ email: 'ada@example.com', password: body.password })).rejects.toBeInstanceOf(
      NetworkError,
    );
  });
});
