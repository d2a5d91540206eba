// A pulled page of the change feed leaves the device as the server has it, whatever order its changes
// reached the server in.
import { expect, it } from 'vitest';
import { createTestDevice } from '../testing/test-lectern';
import { signedInDevice, startWorld, type World } from '../testing/server-fixture';
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
