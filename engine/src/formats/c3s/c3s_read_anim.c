/* Cannibal scene (C3S) reader, the animation subchunks (c3s_read.h): BONE (base OCS, parent,
 * children) and ASEQ (play rate, group, key frames, triggers, linked sequences). A key frame's
 * texture-frame, bone and vertex-frame lists are only checked here and stay in the file, for
 * c3s_build_anim.c to read again. Apart from c3s.c, which reads every other subchunk and calls
 * these two through its table of parsers, to keep both files within the project's size. */
#include "formats/c3s/c3s_read.h"

ossa_status ossa_c3s_parse_bone(parse_ctx *p)
{
    ossa_reader *r = &p->r;
    c3s_smdl *md = p->md;
    c3s_bone *bn = &md->bones[p->index];
    size_t at;
    OSSA_TRY(ossa_c3s_rd_ocs(r, &bn->base, "bone base OCS"));
    at = r->pos;
    OSSA_TRY(rd_index(r, md->count[C3S_BONE], 1, &bn->parent, "parent bone"));
    if (bn->parent == p->index + 1)
        return ossa_fail(r->b, OSSA_ERR_RANGE, (int64_t)at, "bone %u is its own parent",
                         p->index + 1);
    return rd_index_list(r, md->count[C3S_BONE], 0, OSSA_MAX_CHILDREN, &bn->child_count,
                         &bn->children, "child bone");
}

/* A list kept in the file for the build: its count checked, each element's indices too. */
static ossa_status keep_list(ossa_reader *r, c3s_list *l, uint32_t count_cap, size_t min_bytes,
                             const char *what)
{
    OSSA_TRY(rd_count(r, &l->count, count_cap, min_bytes, what));
    l->at = r->pos;
    l->end = r->size;
    return OSSA_OK;
}

static ossa_status parse_key(parse_ctx *p, c3s_key *k)
{
    ossa_reader *r = &p->r;
    c3s_smdl *md = p->md;
    OSSA_TRY(keep_list(r, &k->tex_frames, md->count[C3S_TGRP], 1, "texture vertex frame keys"));
    for (uint32_t i = 0; i < k->tex_frames.count; i++) {
        uint32_t v;
        OSSA_TRY(rd_index(r, md->count[C3S_TFRM], 1, &v, "texture vertex frame key"));
    }
    OSSA_TRY(keep_list(r, &k->bone_keys, md->count[C3S_BONE], 41, "bone key count"));
    for (uint32_t i = 0; i < k->bone_keys.count; i++) {
        uint32_t bone;
        c3s_ocs ocs;
        OSSA_TRY(rd_index(r, md->count[C3S_BONE], 0, &bone, "key bone"));
        OSSA_TRY(ossa_c3s_rd_ocs(r, &ocs, "bone key OCS"));
    }
    OSSA_TRY(keep_list(r, &k->vertex_frames, md->count[C3S_VGRP], 1, "vertex frame keys"));
    for (uint32_t i = 0; i < k->vertex_frames.count; i++) {
        uint32_t v;
        OSSA_TRY(rd_index(r, md->count[C3S_VFRM], 1, &v, "vertex frame key"));
    }
    return OSSA_OK;
}

ossa_status ossa_c3s_parse_sequence(parse_ctx *p)
{
    ossa_reader *r = &p->r;
    c3s_smdl *md = p->md;
    c3s_sequence *sq = &md->sequences[p->index];
    size_t at = r->pos;
    OSSA_TRY(ossa_rd_f32(r, &sq->rate, "sequence playRate"));
    if (!(sq->rate > 0.0f) || sq->rate > 1e6f)
        return ossa_fail(r->b, OSSA_ERR_VALUE, (int64_t)at,
                         "sequence playRate %g is not a positive rate", (double)sq->rate);
    OSSA_TRY(rd_stringz(r, &sq->group, "sequence group"));
    OSSA_TRY(rd_count(r, &sq->key_count, C3S_MAX_MODEL_KEYS - md->key_total, 3,
                      "key frame count"));
    md->key_total += sq->key_count;
    if (sq->key_count)
        OSSA_TRY(ossa_build_array(r->b, &sq->keys, sq->key_count, sizeof *sq->keys));
    for (uint32_t i = 0; i < sq->key_count; i++)
        OSSA_TRY(parse_key(p, &sq->keys[i]));
    OSSA_TRY(rd_count(r, &sq->trigger_count, 65536, 9, "trigger count"));
    if (sq->trigger_count)
        OSSA_TRY(ossa_build_array(r->b, &sq->triggers, sq->trigger_count, sizeof *sq->triggers));
    for (uint32_t i = 0; i < sq->trigger_count; i++) {
        c3s_trigger *tg = &sq->triggers[i];
        OSSA_TRY(ossa_rd_f32(r, &tg->time, "trigger time"));
        OSSA_TRY(ossa_rd_u32(r, &tg->command, "trigger command"));
        OSSA_TRY(rd_count(r, &tg->param_size, OSSA_MAX_STRING, 1, "trigger parameter size"));
        if (tg->param_size) {
            uint8_t *copy;
            OSSA_TRY(ossa_build_array(r->b, &copy, tg->param_size, 1));
            OSSA_TRY(ossa_rd_bytes(r, copy, tg->param_size, "trigger parameters"));
            tg->params = copy;
        }
    }
    OSSA_TRY(keep_list(r, &sq->links, OSSA_MAX_TRACKS, 1, "linked sequence count"));
    for (uint32_t i = 0; i < sq->links.count; i++) {
        uint32_t v;
        OSSA_TRY(rd_index(r, md->count[C3S_ASEQ], 1, &v, "linked sequence"));
    }
    return OSSA_OK;
}
