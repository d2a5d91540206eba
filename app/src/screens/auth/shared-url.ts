// A phone's share sheet opens /share?title=…&text=…&url=… (the manifest's share_target). Many apps put
// the link in `text`, sometimes after a sentence, so every field is searched for the first web address.
const WEB_ADDRESS = /https?:\/\/[^\s<>"']+/i;

export function sharedUrlOf(params: URLSearchParams): string | null {
  for (const field of ['url', 'text', 'title']) {
    const match = WEB_ADDRESS.exec(params.get(field) ?? '');
    // A sentence's closing punctuation is not part of the address.
    if (match) return match[0].replace(/[.,;:!?)\]]+$/, '');
  }
  return null;
}
