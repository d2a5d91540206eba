// An SVG kept with an article is shown as an image, but opened on its own it is a document that could run
// script, so only drawing survives: no script, no event handler, no foreignObject (HTML inside), no style
// (CSS can load from anywhere), no reference outside the file itself (href only to "#id", url() only to
// "url(#id)"). Parsed by sanitize-html's parser (htmlparser2, linear in the input), never by regex.
import sanitizeHtml from 'sanitize-html';

const SVG_TAGS = [
  ...['svg', 'g', 'defs', 'symbol', 'use', 'desc', 'title', 'metadata'],
  ...['path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon'],
  ...['text', 'tspan', 'textPath'],
  ...['linearGradient', 'radialGradient', 'stop', 'pattern', 'clipPath', 'mask', 'marker'],
  ...[
    'filter',
    'feBlend',
    'feColorMatrix',
    'feComponentTransfer',
    'feComposite',
    'feFlood',
    'feGaussianBlur',
  ],
  ...['feMerge', 'feMergeNode', 'feMorphology', 'feOffset', 'feFuncR', 'feFuncG', 'feFuncB', 'feFuncA'],
];

const SVG_ATTRIBUTES = [
  ...['xmlns', 'xmlns:xlink', 'version', 'id', 'class', 'viewBox', 'preserveAspectRatio', 'width', 'height'],
  ...['x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'd', 'points', 'pathLength'],
  ...['transform', 'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-opacity'],
  ...['stroke-linecap', 'stroke-linejoin', 'stroke-dasharray', 'stroke-dashoffset', 'stroke-miterlimit'],
  ...['opacity', 'color', 'display', 'visibility', 'clip-path', 'clip-rule', 'mask', 'filter'],
  ...['offset', 'stop-color', 'stop-opacity', 'gradientUnits', 'gradientTransform', 'spreadMethod'],
  ...['patternUnits', 'patternContentUnits', 'patternTransform', 'clipPathUnits', 'maskUnits'],
  ...['maskContentUnits', 'markerWidth', 'markerHeight', 'markerUnits', 'refX', 'refY', 'orient'],
  ...['marker-start', 'marker-mid', 'marker-end', 'font-family', 'font-size', 'font-weight', 'font-style'],
  ...['text-anchor', 'dominant-baseline', 'letter-spacing', 'dx', 'dy', 'rotate', 'startOffset'],
  ...['in', 'in2', 'result', 'mode', 'type', 'values', 'stdDeviation', 'operator', 'k1', 'k2', 'k3', 'k4'],
  ...['flood-color', 'flood-opacity', 'radius', 'tableValues', 'slope', 'intercept', 'amplitude'],
  ...['exponent', 'filterUnits', 'primitiveUnits', 'href', 'xlink:href'],
];

/** Dropped with everything inside them. */
const DROPPED_WITH_CONTENT = ['script', 'style', 'foreignObject', 'iframe', 'object', 'embed', 'image', 'a'];

/** `url(#id)` only: any other url() could load from elsewhere. Anchored and without nested quantifiers. */
const LOCAL_URL = /^url\(#[\w.:-]+\)$/;

function isLocalReference(name: string, value: string): boolean {
  if (name === 'href' || name === 'xlink:href') return value.startsWith('#');
  const trimmed = value.trim();
  return !trimmed.toLowerCase().includes('url(') || LOCAL_URL.test(trimmed);
}

/** The SVG with only drawing left, or null when nothing of an <svg> root remains. */
export function sanitizeSvg(svg: string): string | null {
  const clean = sanitizeHtml(svg, {
    allowedTags: SVG_TAGS,
    allowedAttributes: { '*': SVG_ATTRIBUTES },
    allowedSchemes: [],
    allowedSchemesAppliedToAttributes: [],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    nonTextTags: DROPPED_WITH_CONTENT,
    parser: { xmlMode: true, decodeEntities: true },
    transformTags: {
      '*': (tagName, attribs) => ({
        tagName,
        attribs: Object.fromEntries(
          Object.entries(attribs).filter(([name, value]) => isLocalReference(name, value)),
        ),
      }),
    },
  });
  // Text outside the root (the tail of a DOCTYPE's internal subset) would make the file invalid XML.
  const start = clean.indexOf('<svg');
  const end = clean.lastIndexOf('</svg>');
  return start >= 0 && end > start ? clean.slice(start, end + '</svg>'.length) : null;
}
