// Spec section 7: the export is downloaded as a pretty-printed JSON file named with the date; the
// Markdown and bookmark exports as the files the server sends.

export function prettyJson(data: unknown): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** Hands the browser a file to save, as a click on a download link would (text, or a file the server sent). */
export function downloadFile(fileName: string, data: string | Blob, type = 'application/json'): void {
  const url = URL.createObjectURL(typeof data === 'string' ? new Blob([data], { type }) : data);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the object URL by now; give it a moment before letting it go.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
