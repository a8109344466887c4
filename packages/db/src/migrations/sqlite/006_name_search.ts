import { sql, type Kysely } from 'kysely';

/**
 * Name search index (F7, core files/list-files.ts findFiles): an FTS5 trigram index over
 * `files.name_lower`, so a substring search reads only the files whose names contain the needle's trigrams
 * instead of every name of the project (bench/files-100k.ts: 100,000 files).
 *
 * It only narrows the candidates: findFiles still applies its exact `name_lower LIKE '%…%'` test, so results
 * are identical with or without it. Trigram case folding is per character, so a folded needle is a substring
 * of every folded name that contains it: no false negatives.
 *
 * FTS rowids come from `files_name_ids` (an INTEGER PRIMARY KEY, stable across VACUUM, unlike the implicit
 * rowid of `files`). Triggers keep both in step with `files`, including rows removed by ON DELETE CASCADE.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const statements = [
    `create table files_name_ids (id integer primary key, file_id text not null unique)`,
    `create virtual table files_name_fts using fts5(name, tokenize = 'trigram', content = '', contentless_delete = 1)`,
    `create trigger files_name_insert after insert on files begin
      insert into files_name_ids(file_id) values (new.id);
      insert into files_name_fts(rowid, name) values ((select id from files_name_ids where file_id = new.id), new.name_lower);
    end`,
    `create trigger files_name_update after update of name_lower on files when new.name_lower is not old.name_lower begin
      delete from files_name_fts where rowid = (select id from files_name_ids where file_id = old.id);
      insert into files_name_fts(rowid, name) values ((select id from files_name_ids where file_id = old.id), new.name_lower);
    end`,
    `create trigger files_name_delete after delete on files begin
      delete from files_name_fts where rowid = (select id from files_name_ids where file_id = old.id);
      delete from files_name_ids where file_id = old.id;
    end`,
    `insert into files_name_ids(file_id) select id from files`,
    `insert into files_name_fts(rowid, name) select m.id, f.name_lower from files f join files_name_ids m on m.file_id = f.id`,
  ];
  for (const s of statements) await sql.raw(s).execute(db);
}
