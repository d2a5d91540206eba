// Tag identity: the device and the server decide "the same tag" with one rule (shared-schema's
// tagNameKey), so accented, German, Greek, Turkish and emoji names converge on the same tags on both.
import type { TagsResponse } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { serverReader, signedInDevice, startWorld, type World } from '../testing/server-fixture';
import { worldPerFile } from '../testing/per-test';

let world: World;
worldPerFile(startWorld, (started) => (world = started));

const NAMES = [
  'RÉSUMÉ',
  'résumé',
  'Re\u0301sume\u0301',
  'Straße',
  'STRASSE',
  'ΟΔΟΣ',
  'οδος',
  'İstanbul',
  'istanbul',
  'ıstanbul',
  '📚 Books',
  '📚 BOOKS',
];

describe('tag identity', () => {
  it('makes the same tags on the device and on the server, whichever side creates them', async () => {
    const device = await signedInDevice(world);
    const { tags, sync } = device.lectern;
    // Offline, so the device decides alone first, then the server replays the same creates.
    device.setOnline(false);
    for (const name of NAMES) await tags.create({ name });
    const onDevice = (await tags.list()).tags.map((tag) => tag.name).sort();
    device.setOnline(true);
    await sync.syncNow();
    const onServer = (await serverReader(world, device.auth.token)<TagsResponse>('/tags')).tags
      .map((tag) => tag.name)
      .sort();
    const afterSync = (await tags.list()).tags.map((tag) => tag.name).sort();

    // résumé ×3, straße ×2, οδος ×2, and the 📚 pair are one tag each; the three Istanbuls stay apart.
    expect(onDevice).toEqual(
      ['RÉSUMÉ', 'Straße', 'istanbul', 'ıstanbul', 'ΟΔΟΣ', 'İstanbul', '📚 Books'].sort(),
    );
    expect(onServer).toEqual(onDevice);
    expect(afterSync).toEqual(onDevice);
    await device.lectern.close();
  });
});
