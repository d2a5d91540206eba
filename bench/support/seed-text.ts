// Deterministic made-up prose for seeding: the same words every run, so figures are repeatable.

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tor',
  'vel',
  'san',
  'qui',
  'dra',
  'pel',
  'nor',
  'bes',
  'tin',
  'gla',
  'fu',
  'ome',
];

export function vocabulary(size: number, random: () => number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const length = 2 + Math.floor(random() * 3);
    let word = '';
    for (let i = 0; i < length; i += 1) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(word);
  }
  return [...words];
}

/**
 * Word frequencies follow Zipf's law, as in real prose: word k is drawn with weight 1/k, so a few words
 * are everywhere and most are rare. Returns a sampler of words.
 */
export function zipfSampler(words: readonly string[], random: () => number): () => string {
  const cumulative: number[] = [];
  let total = 0;
  for (let k = 1; k <= words.length; k += 1) {
    total += 1 / k;
    cumulative.push(total);
  }
  return () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] ?? 0) < target) low = middle + 1;
      else high = middle;
    }
    return words[low] ?? 'word';
  };
}

/** Words drawn as in real prose from a made-up vocabulary: the same ones every run for the same seed. */
export function proseSampler(seed: number, vocabularySize: number): () => string {
  const random = seededRandom(seed);
  return zipfSampler(vocabulary(vocabularySize, random), random);
}

export function prose(sample: () => string, targetBytes: number): string {
  const parts: string[] = [];
  let bytes = 0;
  while (bytes < targetBytes) {
    const word = sample();
    parts.push(word);
    bytes += word.length + 1;
  }
  return parts.join(' ');
}
