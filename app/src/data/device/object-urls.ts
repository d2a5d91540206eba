// Every object URL the app makes for a private image (a screenshot fetched with the token), so that logout
// can revoke what a screen still holds: on a shared device nothing of the user's may stay reachable.
const live = new Set<string>();

export function createObjectUrl(blob: Blob): string {
  const url = URL.createObjectURL(blob);
  live.add(url);
  return url;
}

export function revokeObjectUrl(url: string): void {
  if (!live.delete(url)) return;
  URL.revokeObjectURL(url);
}

export function revokeAllObjectUrls(): void {
  for (const url of live) URL.revokeObjectURL(url);
  live.clear();
}
