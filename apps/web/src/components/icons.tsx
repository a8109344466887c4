/**
 * Small inline SVG icons, so the UI does not depend on an emoji font being installed.
 *
 * @example
 * <Icon name="folder" />
 */
/** A page with a folded corner, and inside it a mark per kind of file (the table's type icons). */
function fileIcons() {
  const page = 'M4 2h5l3 3v9H4zM9 2v3h3';
  return {
    'file-other': page,
    'file-text': `${page}M6 8h4M6 10h4M6 12h2.5`,
    'file-code': `${page}M7 8 5.75 10 7 12M9 8l1.25 2L9 12`,
    'file-image': `${page}M5.5 12.5 7.5 10l1.5 1.5 1-1 1 2zM6.5 7.5h.01`,
    'file-pdf': `${page}M5.5 12.5c1.5-1 3-3.5 2.5-5.5-.5 2 1.5 4.5 3 4.5-1.5-.5-4 0-5.5 1`,
    'file-sheet': `${page}M5.5 7.5h5v5h-5zM5.5 10h5M8 7.5v5`,
    'file-archive': `${page}M6.5 2v1.5M6.5 5v1.5M6 8.5h1V11H6z`,
    'file-audio': `${page}M7.5 12V7.5l2.5-.75V11M7.5 12a1 1 0 1 1-1-1h1M10 11a1 1 0 1 1-1-1h1`,
    'file-video': `${page}M6.75 8v4l3.25-2z`,
  };
}

const paths = {
  folder: 'M2 4.5A1.5 1.5 0 0 1 3.5 3h3l1.5 2h4.5A1.5 1.5 0 0 1 14 6.5v5a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 11.5z',
  storage: 'M3 3h10v3H3zM3 7h10v3H3zM3 11h10v2.5H3z',
  download: 'M8 2v8m-3.5-3.5L8 10l3.5-3.5M3 13h10',
  upload: 'M8 11V3M4.5 6.5 8 3l3.5 3.5M3 13h10',
  edit: 'M10.5 2.5l3 3L6 13H3v-3z',
  trash: 'M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.7 8.5h5.6l.7-8.5',
  plus: 'M8 3v10M3 8h10',
  close: 'M4 4l8 8M12 4l-8 8',
  star: 'M8 2.2l1.75 3.6 3.95.55-2.85 2.8.7 3.95L8 11.2l-3.55 1.9.7-3.95-2.85-2.8 3.95-.55z',
  ...fileIcons(),
} as const;

type IconName = keyof typeof paths;

/**
 * @example
 * <Icon name="trash" />
 */
export function Icon({ name }: { name: IconName }) {
  const filled = name === 'folder' || name === 'storage';
  return (
    <svg
      className={`icon icon-${name}`}
      width="14"
      height="14"
      viewBox="0 0 16 16"
      aria-hidden="true"
      focusable="false"
      fill={filled ? 'currentColor' : 'none'}
      stroke={filled ? 'none' : 'currentColor'}
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={paths[name]} />
    </svg>
  );
}
