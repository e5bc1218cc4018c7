/* The public model builder (ossa/build.h): a two-bone model built in code validates and loads
 * into the runtime; a cyclic skeleton, an invalid model and an abandoned build leave nothing. */
#include <string.h>
#include "test_common.h"
#include "ossa/ossa.h"

static void set_bone(ossa_bone *b, const char *name, int32_t parent, float y)
{
    b->name = name;
    b->parent = parent;
    b->rest_r[3] = b->inv_bind_r[3] = 1.0f;
    b->rest_s[0] = b->rest_s[1] = b->rest_s[2] = 1.0f;
    b->rest_t[1] = y;
    b->inv_bind_t[1] = parent < 0 ? -y : -2.0f * y;
}

/* Bones given child first: the builder reorders them parents-first. */
static ossa_status build_two_bones(ossa_builder *b)
{
    ossa_bone *bones;
    ossa_status st = ossa_builder_alloc(b, &bones, 2, sizeof *bones);
    if (st != OSSA_OK)
        return st;
    set_bone(&bones[0], "tip", 1, 1.0f);
    set_bone(&bones[1], "root", -1, 1.0f);
    uint32_t *children;
    if ((st = ossa_builder_alloc(b, &children, 1, sizeof *children)) != OSSA_OK)
        return st;
    children[0] = 0;
    bones[1].child_count = 1;
    bones[1].children = children;
    if ((st = ossa_builder_strndup(b, &ossa_builder_model(b)->source, "(test)", 6)) != OSSA_OK)
        return st;
    return ossa_builder_set_skeleton(b, bones, 2);
}

int main(void)
{
    ossa_error err;
    ossa_builder *b = NULL;
    ossa_model *m = NULL;
    CHECK(ossa_builder_create("two-bones", &b, &err) == OSSA_OK && b);
    CHECK(ossa_builder_finish(b, build_two_bones(b), &m) == OSSA_OK && m);
    if (m) {
        CHECK(m->bone_count == 2 && !strcmp(m->bones[0].name, "root"));
        CHECK(m->bones[1].parent == 0 && m->bones[1].source_index == 0);
        ossa_rt_skeleton *skel = NULL;
        CHECK(ossa_rt_skeleton_create(m, &skel, &err) == OSSA_OK);
        ossa_rt_skeleton_destroy(skel);
    }
    ossa_model_destroy(m);

    /* A bone that is its own ancestor is refused, with a message naming the build. */
    CHECK(ossa_builder_create("cycle", &b, &err) == OSSA_OK);
    ossa_bone *bones = NULL;
    CHECK(ossa_builder_alloc(b, &bones, 2, sizeof *bones) == OSSA_OK);
    set_bone(&bones[0], "a", 1, 1.0f);
    set_bone(&bones[1], "b", 0, 1.0f);
    ossa_status st = ossa_builder_set_skeleton(b, bones, 2);
    CHECK(st != OSSA_OK && err.status == st && err.message[0]);
    m = (ossa_model *)&err;
    CHECK(ossa_builder_finish(b, st, &m) == st && m == NULL);

    /* A clip with no tracks and no duration fails validation: nothing is handed over. */
    CHECK(ossa_builder_create("invalid", &b, NULL) == OSSA_OK);
    ossa_clip *clip = NULL;
    CHECK(ossa_builder_add_clip(b, &clip) == OSSA_OK && clip);
    clip->duration = -1.0f;
    CHECK(ossa_builder_finish(b, OSSA_OK, &m) != OSSA_OK && m == NULL);

    /* Abandoned builds free everything (the ASan build checks). */
    CHECK(ossa_builder_create("abandoned", &b, NULL) == OSSA_OK);
    ossa_mesh *mesh = NULL;
    CHECK(ossa_builder_add_mesh(b, &mesh) == OSSA_OK && mesh);
    ossa_builder_destroy(b);
    ossa_builder_destroy(NULL);
    CHECK(ossa_builder_create("x", NULL, &err) == OSSA_ERR_INVALID_ARGUMENT);
    return test_finish("unit-builder");
}
