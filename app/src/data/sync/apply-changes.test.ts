// A pulled page of the change feed leaves the device as the server has it, whatever order its changes
// reached the server in.
import Dexie, { type ObservabilitySet } from 'dexie';
import { expect, it } from 'vitest';
import { createTestDevice } from '../testing/test-lectern';
import { signedInDevice, startWorld, untilImagesArchived, type World } from '../testing/server-fixture';
import { worldPerFile } from '../testing/per-test';

let world: World;

worldPerFile(startWorld, (started) => (world = started));

it('keeps a tag deleted and made again under the same name on the articles it was attached to', async () => {
  const phone = await signedInDevice(world);
  const { article } = await phone.lectern.articles.create({ url: world.site.url('/gardening') });
  const { tag } = await phone.lectern.tags.create({ name: 'home' });
  await phone.lectern.sync.syncNow();
  const laptop = createTestDevice({ baseUrl: world.server.url });
  laptop.storage.setItem('token', phone.auth.token);
  await laptop.lectern.sync.syncNow();

  await phone.lectern.tags.remove(tag.id);
  const { tag: again } = await phone.lectern.tags.create({ name: 'home' });
  await phone.lectern.articles.addTag(article.id, { tagId: again.id });
  await phone.lectern.sync.syncNow();
  expect(await laptop.lectern.sync.syncNow()).toMatchObject({ status: 'synced' });

  expect((await laptop.lectern.articles.get(article.id)).article.tags).toEqual(['home']);
  expect((await laptop.lectern.tags.list()).tags.map((t) => [t.id, t.name])).toEqual([[again.id, 'home']]);
  await phone.lectern.close();
  await laptop.lectern.close();
});

it('writes nothing on the device when a sync finds nothing new', async () => {
  const phone = await signedInDevice(world);
  const { article } = await phone.lectern.articles.create({ url: world.site.url('/gardening') });
  // The page has a picture: its archive job changes the article once more a moment after the save.
  await untilImagesArchived(world, phone.auth.token, article.id);
  await phone.lectern.sync.syncNow();
  const written: string[] = [];
  // What changed, by table part and key range; the sync's own time (lastSyncedAt) is written every time.
  const listener = (parts: ObservabilitySet) => {
    for (const [part, tree] of Object.entries(parts)) {
      // The root of the part's range tree: the whole range written.
      const range = tree as { from?: unknown; to?: unknown };
      if (range.from === 'lastSyncedAt' && range.to === 'lastSyncedAt') continue;
      written.push(`${part.replace(/^idb:\/\/[^/]+\//, '')} ${String(range.from)}..${String(range.to)}`);
    }
  };
  Dexie.on('storagemutated', listener);
  try {
    expect(await phone.lectern.sync.syncNow()).toMatchObject({ status: 'synced' });
  } finally {
    Dexie.on('storagemutated').unsubscribe(listener);
  }
  expect(written).toEqual([]);
  await phone.lectern.close();
});
