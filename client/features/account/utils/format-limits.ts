// The account limits as words: counts with thousands separators, stored text in MB (KB below one MB,
// so a new account's first story does not read as nothing).
const countFormat = new Intl.NumberFormat('en-US');
const mbFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

const MB = 1024 * 1024;

export function formatCount(value: number): string {
  return countFormat.format(value);
}

/** Bytes as the server counts USER_MAX_STORED_MB (1 MB = 1,048,576 bytes). */
export function formatStorage(bytes: number): string {
  if (bytes === 0 || bytes >= MB) return `${mbFormat.format(bytes / MB)} MB`;
  return `${countFormat.format(Math.max(1, Math.round(bytes / 1024)))} KB`;
}
