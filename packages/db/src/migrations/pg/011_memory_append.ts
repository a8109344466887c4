import { sql, type Kysely } from 'kysely';

/**
 * Memory append in one round trip on PostgreSQL (packages/core/src/memory/store.ts pgAppendVersion): one call
 * locks the file's row (creating it at version 0 if missing), rebuilds the newest text from its last snapshot
 * and deltas, adds the text on lines of its own, refuses a file over the size limit (SQLSTATE ST413) and
 * writes the version row and the file row — work that took five statements, each a round trip under the lock.
 * It returns the text before the append, which the caller indexes in the same transaction.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create function stoa_memory_append(
      p_project text, p_kind text, p_scope text, p_new_id text, p_initial text, p_text text, p_op text, p_now text,
      p_author_kind text, p_author_id text, p_author_label text, p_author_meta text, p_max_bytes bigint, p_snapshot_every integer)
    returns table (file_id text, version integer, previous text) language plpgsql as $$
    declare
      f memory_files%rowtype;
      prev text;
      added text;
      snap integer;
      delta boolean;
    begin
      select * into f from memory_files m where m.project_id = p_project and m.kind = p_kind and m.scope_id = p_scope for update;
      if not found then
        insert into memory_files (id, project_id, kind, scope_id, version, updated_at)
          values (p_new_id, p_project, p_kind, p_scope, 0, p_now) on conflict do nothing;
        select * into f from memory_files m where m.project_id = p_project and m.kind = p_kind and m.scope_id = p_scope for update;
      end if;
      if f.version = 0 then
        prev := p_initial;
      else
        select max(v.version) into snap from memory_versions v where v.file_id = f.id and v.delta = 0 and v.version <= f.version;
        select string_agg(v.content, '' order by v.version) into prev
          from memory_versions v where v.file_id = f.id and v.version >= snap and v.version <= f.version;
        prev := coalesce(prev, '');
      end if;
      added := case when prev = '' or right(prev, 1) = E'\\n' then '' else E'\\n' end || p_text
        || case when right(p_text, 1) = E'\\n' then '' else E'\\n' end;
      if octet_length(prev) + octet_length(added) > p_max_bytes then
        raise exception 'memory file over % bytes', p_max_bytes using errcode = 'ST413';
      end if;
      delta := f.version > 0 and f.version % p_snapshot_every <> 0;
      insert into memory_versions (file_id, project_id, version, content, delta, chars, op, author_kind, author_id, author_label, author_meta, created_at)
        values (f.id, p_project, f.version + 1, case when delta then added else prev || added end, delta::integer,
          char_length(prev) + char_length(added), p_op, p_author_kind, p_author_id, p_author_label, p_author_meta, p_now);
      update memory_files m set version = f.version + 1, updated_at = p_now, author_kind = p_author_kind, author_id = p_author_id,
        author_label = p_author_label, author_meta = p_author_meta where m.id = f.id;
      return query select f.id, f.version + 1, prev;
    end $$`,
    )
    .execute(db);
}
