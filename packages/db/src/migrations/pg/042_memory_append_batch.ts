import { sql, type Kysely } from 'kysely';

/**
 * Memory appends to one file written together on PostgreSQL (packages/core/src/memory/append-batch.ts): one
 * statement, run as its own transaction, locks the file's row (creating it at version 0 if missing), rebuilds
 * the newest text, then writes each queued append as a version of its own, in order — each with its author,
 * time and op, the same snapshot/delta rule as stoa_memory_append (migration 011), and refused alone (its
 * version comes back null) when it would take the file over the size limit — then the file row and one outbox
 * row for the search blocks of the whole batch (first block and old block count from the text before it).
 * Concurrent appends to one file thus share one row lock and one WAL flush instead of queuing for one each.
 * It returns the file, the text before the batch and the version of each append. stoa_memory_append (011) is no
 * longer called but stays, so a server of the previous version keeps working during an upgrade (decision 0025).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create function stoa_memory_append_batch(
      p_project text, p_kind text, p_scope text, p_new_id text, p_initial text,
      p_texts text[], p_ops text[], p_nows text[],
      p_author_kinds text[], p_author_ids text[], p_author_labels text[], p_author_metas text[],
      p_max_bytes bigint, p_snapshot_every integer,
      p_path text, p_title text, p_visibility text, p_lines_per_block integer)
    returns table (file_id text, previous text, versions integer[]) language plpgsql as $$
    declare
      f memory_files%rowtype;
      prev text;
      cur text;
      added text;
      snap integer;
      ver integer;
      vers integer[] := '{}';
      bytes bigint;
      chars bigint;
      lines integer;
      last_i integer := 0;
    begin
      select * into f from memory_files m where m.project_id = p_project and m.kind = p_kind and m.scope_id = p_scope for update;
      if not found then
        insert into memory_files (id, project_id, kind, scope_id, version, updated_at)
          values (p_new_id, p_project, p_kind, p_scope, 0, p_nows[1]) on conflict do nothing;
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
      cur := prev;
      ver := f.version;
      bytes := octet_length(prev);
      chars := char_length(prev);
      for i in 1 .. coalesce(array_length(p_texts, 1), 0) loop
        added := case when cur = '' or right(cur, 1) = E'\\n' then '' else E'\\n' end || p_texts[i]
          || case when right(p_texts[i], 1) = E'\\n' then '' else E'\\n' end;
        if bytes + octet_length(added) > p_max_bytes then
          vers := vers || null::integer;
          continue;
        end if;
        insert into memory_versions (file_id, project_id, version, content, delta, chars, op, author_kind, author_id, author_label, author_meta, created_at)
          values (f.id, p_project, ver + 1,
            case when ver > 0 and ver % p_snapshot_every <> 0 then added else cur || added end,
            (ver > 0 and ver % p_snapshot_every <> 0)::integer,
            chars + char_length(added), p_ops[i], p_author_kinds[i], p_author_ids[i], p_author_labels[i], p_author_metas[i], p_nows[i]);
        cur := cur || added;
        bytes := bytes + octet_length(added);
        chars := chars + char_length(added);
        ver := ver + 1;
        vers := vers || ver;
        last_i := i;
      end loop;
      if last_i > 0 then
        update memory_files m set version = ver, updated_at = p_nows[last_i], author_kind = p_author_kinds[last_i],
          author_id = p_author_ids[last_i], author_label = p_author_labels[last_i], author_meta = p_author_metas[last_i]
          where m.id = f.id;
        -- The search blocks from the old last block on (memory-index.ts memoryChangeSpan of the text before the
        -- batch; a never-saved file had none indexed).
        lines := case when f.version = 0 or prev = '' then 0
          else length(prev) - length(replace(prev, E'\\n', '')) + case when right(prev, 1) = E'\\n' then 0 else 1 end end;
        insert into derived_outbox (project_id, kind, ref_id, version, first_block, old_blocks, path, title, visibility, at)
          values (p_project, 'memory', f.id, ver, lines / p_lines_per_block, (lines + p_lines_per_block - 1) / p_lines_per_block,
            p_path, p_title, p_visibility, p_nows[last_i]);
      end if;
      return query select f.id, prev, vers;
    end $$`,
    )
    .execute(db);
}
