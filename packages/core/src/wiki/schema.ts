import type { WikiPagesTable } from '@stoa/db';

export type { WikiPagesTable, WikiVersionsTable } from '@stoa/db';

export type PageRow = WikiPagesTable;
