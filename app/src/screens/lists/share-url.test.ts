import { describe, expect, it } from 'vitest';
import { shareUrl } from './share-url';

describe('shareUrl', () => {
  it('is the origin plus /list/{share_id} for a public list', () => {
    expect(shareUrl('https://lectern.example', { share_id: 'k3Yq9x', is_public: true })).toBe(
      'https://lectern.example/list/k3Yq9x',
    );
  });

  it('does not exist for a private list', () => {
    expect(shareUrl('https://lectern.example', { share_id: 'k3Yq9x', is_public: false })).toBeNull();
  });
});
