// A new share link for a list: the device shows it at once, the old link stops working.
import type { ListResponse } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { serverReader, signedInDevice, startWorld, type World } from '../testing/server-fixture';
import { worldPerFile } from '../testing/per-test';

let world: World;
worldPerFile(startWorld, (started) => (world = started));

describe('rotating a list’s share link', () => {
  it('gives the list a new link on the device and the server; the old one answers 404', async () => {
    const device = await signedInDevice(world);
    const { lists, sync } = device.lectern;
    const { list: created } = await lists.create({ name: 'Trip', isPublic: true });
    await sync.syncNow();
    // The share id comes from the server with the first sync.
    const { list } = await lists.get(created.id);
    expect((await lists.getPublic(list.share_id)).list.name).toBe('Trip');

    const { list: rotated } = await lists.rotateShareLink(list.id);
    expect(rotated.share_id).not.toBe(list.share_id);
    expect((await lists.get(list.id)).list.share_id).toBe(rotated.share_id);
    const server = await serverReader(world, device.auth.token)<ListResponse>(`/lists/${list.id}`);
    expect(server.list.share_id).toBe(rotated.share_id);
    await expect(lists.getPublic(list.share_id)).rejects.toMatchObject({ status: 404 });
    expect((await lists.getPublic(rotated.share_id)).list.name).toBe('Trip');
    await device.lectern.close();
  });

  it('fails offline and changes nothing', async () => {
    const device = await signedInDevice(world);
    const { lists, sync } = device.lectern;
    const { list: created } = await lists.create({ name: 'Offline' });
    await sync.syncNow();
    const { list } = await lists.get(created.id);
    device.setOnline(false);
    await expect(lists.rotateShareLink(list.id)).rejects.toBeTruthy();
    expect((await lists.get(list.id)).list.share_id).toBe(list.share_id);
    await device.lectern.close();
  });
});
