import type { WikiPagesTable } from '@stoa/db';

export type { WikiPagesTable, WikiVersionsTable, WikiLinksTable } from '@stoa/db';

export type PageRow = WikiPagesTable;
