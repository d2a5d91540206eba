// Spec section 7: the export is downloaded as a pretty-printed JSON file named with the date.

export function prettyJson(data: unknown): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** Hands the browser a file to save, as a click on a download link would. */
export function downloadFile(fileName: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
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
