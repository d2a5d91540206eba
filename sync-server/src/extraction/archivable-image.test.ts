import { describe, expect, it } from 'vitest';
import { archivableImage } from './archivable-image';
import { FIXTURE_IMAGES } from '../../test/support/fixture-site';

describe('archivableImage', () => {
  it('knows each kind we keep from its bytes', () => {
    expect(archivableImage(FIXTURE_IMAGES.png)?.ext).toBe('png');
    expect(archivableImage(FIXTURE_IMAGES.jpeg)?.ext).toBe('jpg');
    expect(archivableImage(FIXTURE_IMAGES.webp)?.ext).toBe('webp');
    const gif = Buffer.concat([
      Buffer.from('GIF89a', 'latin1'),
      Buffer.from([1, 0, 1, 0, 0, 0, 0]),
      Buffer.alloc(8),
    ]);
    expect(archivableImage(gif)?.ext).toBe('gif');
    const avif = Buffer.concat([
      Buffer.from([0, 0, 0, 28]),
      Buffer.from('ftypavif', 'latin1'),
      Buffer.alloc(4),
      Buffer.from('mif1miafMA1B', 'latin1'),
      Buffer.alloc(8),
    ]);
    expect(archivableImage(avif)?.ext).toBe('avif');
    const svg = archivableImage(FIXTURE_IMAGES.svgWithScript);
    expect(svg?.ext).toBe('svg');
    expect(svg?.bytes.toString('utf8')).not.toContain('script');
  });

  it('refuses what is no image, whatever it was served as', () => {
    expect(archivableImage(Buffer.from('<html><script>alert(1)</script></html>'))).toBeNull();
    expect(archivableImage(Buffer.from('GIF89a'))).toBeNull();
    expect(archivableImage(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
    expect(archivableImage(Buffer.alloc(64))).toBeNull();
    const mp4 = Buffer.concat([
      Buffer.from([0, 0, 0, 24]),
      Buffer.from('ftypisom', 'latin1'),
      Buffer.alloc(16),
    ]);
    expect(archivableImage(mp4)).toBeNull();
  });
});
