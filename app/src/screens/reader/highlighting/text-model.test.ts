// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { buildTextModel, offsetOfPoint, offsetsOfRange, segmentsInRange } from './text-model';
import { rangeBetween, renderBody, textNodeWith } from './test-dom';

describe('buildTextModel', () => {
  it('joins the text of inline elements without adding anything', () => {
    const root = renderBody('<p>Read <a href="#">the <em>fine</em> docs</a> now.</p>');
    expect(buildTextModel(root).text).toBe('Read the fine docs now.');
  });

  it('keeps the words of two blocks apart with one line break', () => {
    expect(buildTextModel(renderBody('<p>One</p><p>Two</p>')).text).toBe('One\nTwo');
    expect(buildTextModel(renderBody('<h2>Title</h2><ul><li>a</li><li>b</li></ul>')).text).toBe(
      'Title\na\nb',
    );
    expect(buildTextModel(renderBody('<p>line<br>break</p>')).text).toBe('line\nbreak');
  });

  it('leaves out the text of scripts and styles', () => {
    const root = renderBody('<p>Kept</p><style>p{}</style><script>var x</script><p>too</p>');
    expect(buildTextModel(root).text).toBe('Kept\ntoo');
  });

  it('maps each text node to the stretch of text it holds', () => {
    const root = renderBody('<p>Alpha <b>beta</b> gamma</p>');
    const model = buildTextModel(root);
    for (const segment of model.segments) {
      expect(model.text.slice(segment.start, segment.end)).toBe(segment.node.data);
    }
    expect(model.segments.map((s) => s.node.data)).toEqual(['Alpha ', 'beta', ' gamma']);
  });
});

describe('offsetOfPoint', () => {
  it('counts a point inside a text node from the start of the body', () => {
    const root = renderBody('<p>Alpha <b>beta</b> gamma</p>');
    const model = buildTextModel(root);
    expect(offsetOfPoint(model, textNodeWith(root, 'beta'), 2)).toBe('Alpha be'.length);
  });

  it('maps a point between elements to the start of the next text', () => {
    const root = renderBody('<p>One</p><p><img alt=""><b>Two</b></p>');
    const model = buildTextModel(root);
    const second = root.querySelectorAll('p')[1]!;
    expect(offsetOfPoint(model, second, 1)).toBe(model.text.indexOf('Two'));
    expect(offsetOfPoint(model, root, 2)).toBe(model.text.length);
  });
});

describe('offsetsOfRange', () => {
  it('answers the offsets of a range across a link', () => {
    const root = renderBody('<p>Start <a href="#">link text</a> end</p>');
    const model = buildTextModel(root);
    const offsets = offsetsOfRange(model, rangeBetween(root, 'art', 'en'))!;
    expect(model.text.slice(offsets.start, offsets.end)).toBe('art link text en');
  });

  it('clips a range that starts before the body and ignores one outside it', () => {
    document.body.innerHTML = '<p id="before">Outside</p><div id="body"><p>Inside text</p></div><p>After</p>';
    const root = document.getElementById('body')!;
    const model = buildTextModel(root);
    const spanning = rangeBetween(document.body, 'Outside', 'Inside');
    expect(offsetsOfRange(model, spanning)).toEqual({ start: 0, end: 'Inside'.length });
    expect(offsetsOfRange(model, rangeBetween(document.body, 'Outside', 'Outside'))).toBeNull();
    expect(offsetsOfRange(model, rangeBetween(document.body, 'After', 'After'))).toBeNull();
  });
});

describe('segmentsInRange', () => {
  it('lists the pieces of each text node a stretch covers', () => {
    const root = renderBody('<p>Alpha <b>beta</b> gamma</p>');
    const model = buildTextModel(root);
    const pieces = segmentsInRange(model, 3, 13);
    expect(pieces.map((p) => p.node.data.slice(p.from, p.to))).toEqual(['ha ', 'beta', ' ga']);
  });
});
