/** Hands a file the app made to the browser's (or Electron's) download. */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has read the URL by then; it is freed a little later.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
