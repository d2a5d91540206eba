import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTextImageRenderer, type TextImageRenderer } from '../../test/fixtures/text-image-renderer';
import { createOcrService, screenshotArticleFields, sniffImage } from './index';

// One OCR service (one tesseract worker) for the whole file, as the server keeps one.
const ocr = createOcrService();
let renderer: TextImageRenderer;
beforeAll(async () => {
  renderer = await startTextImageRenderer();
});
afterAll(async () => {
  await ocr.close();
  await renderer.close();
});

const PAGE = `
  <div style="font-size:12px;padding:6px 16px;color:#444">9:41 &nbsp; 5G &nbsp; 87%</div>
  <h1 style="font-size:22px;margin:12px 16px">Lighthouse keepers remember</h1>
  <p style="font-size:17px;line-height:1.5;margin:0 16px">
    The keeper climbed one hundred and twelve steps every evening to light the lamp above the harbour.
  </p>`;

const words = (text: string) => text.toLowerCase().match(/[a-z]+/g) ?? [];

describe('OCR of screenshots', () => {
  it('reads the words of a generated PNG screenshot and makes an article of them', async () => {
    const png = await renderer.render({ html: PAGE, width: 390, height: 260, scale: 2 });
    expect(sniffImage(png)).toEqual({ type: 'png', width: 780, height: 520 });

    const text = await ocr.recognize(png);
    expect(words(text)).toEqual(
      expect.arrayContaining([
        'lighthouse',
        'keepers',
        'remember',
        'keeper',
        'climbed',
        'hundred',
        'twelve',
        'steps',
      ]),
    );
    expect(words(text)).toEqual(expect.arrayContaining(['evening', 'light', 'lamp', 'above', 'harbour']));
    const fields = screenshotArticleFields(text);
    expect(fields.title).toBe('Lighthouse keepers remember');
    expect(fields.content).toContain('<p>The keeper climbed one hundred and twelve steps every evening');
  });

  it('takes concurrent JPEG and WebP uploads in turn on the same worker', async () => {
    const [jpeg, webp] = await Promise.all([
      renderer.render({ html: PAGE, width: 390, height: 260, scale: 2, type: 'jpeg' }),
      renderer.render({ html: PAGE, width: 390, height: 260, scale: 2, type: 'webp' }),
    ]);
    expect(sniffImage(jpeg)).toEqual({ type: 'jpeg', width: 780, height: 520 });
    expect(sniffImage(webp)).toEqual({ type: 'webp', width: 780, height: 520 });

    const texts = await Promise.all([ocr.recognize(jpeg), ocr.recognize(webp), ocr.recognize(jpeg)]);
    for (const text of texts) {
      expect(words(text)).toEqual(expect.arrayContaining(['lighthouse', 'keepers', 'remember', 'harbour']));
    }
  });

  it('rejects bytes that are not an image without breaking the worker for the next upload', async () => {
    await expect(ocr.recognize(Buffer.from('not an image at all'))).rejects.toThrow(
      /The screenshot could not be read/,
    );
    const png = await renderer.render({ html: PAGE, width: 390, height: 260, scale: 2 });
    expect(words(await ocr.recognize(png))).toContain('lighthouse');
  });
});
