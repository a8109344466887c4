/**
 * Small inline SVG icons, so the UI does not depend on an emoji font being installed.
 *
 * @example
 * <Icon name="folder" />
 */
const paths = {
  folder: 'M2 4.5A1.5 1.5 0 0 1 3.5 3h3l1.5 2h4.5A1.5 1.5 0 0 1 14 6.5v5a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 11.5z',
  storage: 'M3 3h10v3H3zM3 7h10v3H3zM3 11h10v2.5H3z',
  download: 'M8 2v8m-3.5-3.5L8 10l3.5-3.5M3 13h10',
  upload: 'M8 11V3M4.5 6.5 8 3l3.5 3.5M3 13h10',
  edit: 'M10.5 2.5l3 3L6 13H3v-3z',
  trash: 'M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.7 8.5h5.6l.7-8.5',
  plus: 'M8 3v10M3 8h10',
  close: 'M4 4l8 8M12 4l-8 8',
  // One per kind of file (pages/files/file-kind.ts): a page outline, with a mark inside for the kind.
  other: 'M4 2h5l3 3v9H4zM9 2v3h3',
  text: 'M4 2h5l3 3v9H4zM9 2v3h3M6 8h4M6 10h4M6 12h3',
  code: 'M4 2h5l3 3v9H4zM9 2v3h3M7 8.5 5.5 10 7 11.5M9 8.5l1.5 1.5L9 11.5',
  image: 'M2.5 3h11v10h-11zM2.5 11l3.5-3.5 3 3 1.5-1.5 3 3M10.5 5.5h.01',
  pdf: 'M4 2h5l3 3v9H4zM9 2v3h3M5.5 12c1.5-1 3-3.5 2.5-5-.5 1.5.5 3.5 2.5 4.5',
  sheet: 'M2.5 3h11v10h-11zM2.5 6.5h11M2.5 10h11M6.5 3v10',
  archive: 'M4 2h8v12H4zM8 2v1.5M8 5v1.5M8 8v1.5M7 11h2',
  audio: 'M6 12V4l7-1.5v8M6 12a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0zM13 10.5a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0z',
  video: 'M2.5 4h8v8h-8zM10.5 7l3-2v6l-3-2',
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
