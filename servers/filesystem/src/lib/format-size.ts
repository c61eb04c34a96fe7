const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * Human-readable byte count, identical to the official server's `formatSize`
 * ("0 B", "512 B", "1.50 KB") so text renderings of list_directory_with_sizes match.
 */
export function formatSize(bytes: number): string {
  if (bytes <= 0) return '0 B';
  const i = Math.floor(Math.log(bytes) / Math.log(1024));
  if (i <= 0) return `${bytes} ${UNITS[0]}`;
  const unit = Math.min(i, UNITS.length - 1);
  return `${(bytes / Math.pow(1024, unit)).toFixed(2)} ${UNITS[unit]}`;
}
