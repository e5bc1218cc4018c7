/* Cal3D XML readers on small hand-written documents: both header styles, BOM and declaration,
 * case-insensitive names, MAGIC checks, D5 rotation-only keys, meshes with morphs and
 * springs, materials, morph animations, and hostile input (NaN, bad ids, DTD/entities, lying
 * counts), each failure with its status and line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ossa/load.h"
#include "test_common.h"

static ossa_model *load(const char *text, const char *name, ossa_error *err)
{
    ossa_model *m = NULL;
    ossa_load_memory(text, strlen(text), name, NULL, &m, err);
    return m;
}

/* Loads and expects failure with status and line; returns the message for extra checks. */
static void expect_fail(const char *text, const char *name, ossa_status status, int line,
                        const char *needle)
{
    ossa_error err;
    ossa_model *m = load(text, name, &err);
    CHECKF(m == NULL, "%s loaded but should fail", name);
    ossa_model_destroy(m);
    CHECKF(err.status == status, "%s: status %s, expected %s (%s)", name,
           ossa_status_name(err.status), ossa_status_name(status), err.message);
    if (line >= 0)
        CHECKF(err.line == line, "%s: line %d, expected %d (%s)", name, err.line, line, err.message);
    if (needle)
        CHECKF(strstr(err.message, needle) != NULL, "%s: message '%s' lacks '%s'", name,
               err.message, needle);
    CHECKF(strstr(err.message, "ossa-cal3d") == NULL, "%s: message names the internal wrapper: %s",
           name, err.message);
}

static bool has_warning(const ossa_model *m, const char *needle)
{
    for (uint32_t i = 0; i < m->warning_count; i++)
        if (strstr(m->warnings[i], needle))
            return true;
    return false;
}

#define BONE_BODY                                                          \
    "    <TRANSLATION>1 2 3</TRANSLATION>\n"                                \
    "    <ROTATION>0 0 0.7071068 0.7071068</ROTATION>\n"                    \
    "    <LOCALTRANSLATION>-1 -2 -3</LOCALTRANSLATION>\n"                   \
    "    <LOCALROTATION>0 0 0 1</LOCALROTATION>\n"

static const char xsf_header[] =
    "<HEADER MAGIC=\"XSF\" VERSION=\"910\"/>\n"
    "<SKELETON NUMBONES=\"2\" SCENEAMBIENTCOLOR=\"0.1 0.2 0.3\">\n"
    "  <BONE ID=\"0\" NAME=\"root\" NUMCHILD=\"1\">\n" BONE_BODY
    "    <PARENTID>-1</PARENTID>\n"
    "    <CHILDID>1</CHILDID>\n"
    "  </BONE>\n"
    "  <BONE ID=\"1\" NAME=\"child\" NUMCHILD=\"0\" LIGHTTYPE=\"1\" LIGHTCOLOR=\"1 0.5 0\">\n"
    "    <TRANSLATION>4 5 6</TRANSLATION>\n"
    "    <ROTATION>0 0 0 1</ROTATION>\n"
    "    <LOCALTRANSLATION>0 0 0</LOCALTRANSLATION>\n"
    "    <LOCALROTATION>0 0 0 1</LOCALROTATION>\n"
    "    <PARENTID>0</PARENTID>\n"
    "  </BONE>\n"
    "</SKELETON>\n";

static void check_two_bones(const ossa_model *m, const char *what)
{
    CHECKF(m && m->bone_count == 2, "%s", what);
    if (!m || m->bone_count != 2)
        return;
    CHECK(strcmp(m->bones[0].name, "root") == 0 && strcmp(m->bones[1].name, "child") == 0);
    CHECK(m->bones[0].parent == -1 && m->bones[1].parent == 0);
    CHECK(m->bones[0].rest_t[0] == 1.0f && m->bones[0].rest_t[2] == 3.0f);
    /* Cal3D (conjugated) to Hamilton: x, y, z negated. */
    CHECK_NEAR(m->bones[0].rest_r[2], -0.7071068, 1e-7);
    CHECK_NEAR(m->bones[0].rest_r[3], 0.7071068, 1e-7);
    CHECK(m->bones[0].rest_s[0] == 1.0f && m->bones[0].rest_s[2] == 1.0f);
    CHECK(m->bones[0].inv_bind_t[1] == -2.0f);
    CHECK(m->bones[0].child_count == 1 && m->bones[0].children[0] == 1);
    CHECK(m->skeleton_format == OSSA_FORMAT_XSF);
}

static void test_skeleton_styles(void)
{
    ossa_error err;
    ossa_model *m = load(xsf_header, "a.xsf", &err);
    check_two_bones(m, "HEADER style");
    if (m) {
        CHECK(m->skeleton_version == 910 && m->version == 910);
        CHECK(m->has_scene_ambient && m->scene_ambient[1] == 0.2f);
        CHECK(m->bones[1].light_type == 1 && m->bones[1].light_color[1] == 0.5f);
        CHECK(m->warning_count == 0);
    }
    ossa_model_destroy(m);

    /* delta3d style: one root carrying VERSION, CRLF line ends, no HEADER. */
    char inline_style[4096];
    const char *body = strstr(xsf_header, "\n") + 1;
    snprintf(inline_style, sizeof inline_style, "<SKELETON VERSION=\"1100\" %s",
             strstr(body, "NUMBONES"));
    m = load(inline_style, "b.xsf", &err);
    check_two_bones(m, "inline style");
    if (m)
        CHECK(m->skeleton_version == 1100);
    ossa_model_destroy(m);

    /* UTF-8 BOM + XML declaration + lower-case names: still the same skeleton; and the line
     * of an error counts from the file's own first line. */
    char lower[4096];
    snprintf(lower, sizeof lower, "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n%s",
             xsf_header);
    for (char *p = lower; *p; p++)
        if (*p >= 'A' && *p <= 'Z' && strncmp(p, "XSF", 3) != 0)
            *p = (char)(*p - 'A' + 'a');
    m = load(lower, "c.xsf", &err);
    check_two_bones(m, "BOM + declaration + lower case");
    CHECKF(m != NULL, "%s", err.message);
    ossa_model_destroy(m);

    /* Without the BOM, and with a declaration but no header: version missing -> 1000 + warning. */
    m = load("<?xml version=\"1.0\"?>\r\n<SKELETON>\r\n  <BONE NAME=\"only\">\r\n" BONE_BODY
             "    <PARENTID>-1</PARENTID>\r\n  </BONE>\r\n</SKELETON>\r\n",
             "d.xsf", &err);
    CHECKF(m && m->bone_count == 1 && m->skeleton_version == 1000, "%s", err.message);
    if (m)
        CHECK(has_warning(m, "no VERSION"));
    ossa_model_destroy(m);

    /* The 0.9 document's MAGIC="XFS" typo: accepted with a warning (D6). */
    char xfs[4096];
    snprintf(xfs, sizeof xfs, "%s", xsf_header);
    memcpy(strstr(xfs, "XSF"), "XFS", 3);
    m = load(xfs, "e.xsf", &err);
    check_two_bones(m, "XFS");
    if (m)
        CHECK(has_warning(m, "XFS"));
    ossa_model_destroy(m);

    /* Wrong MAGIC for the reader. */
    char wrong[4096];
    snprintf(wrong, sizeof wrong, "%s", xsf_header);
    memcpy(strstr(wrong, "XSF"), "XAF", 3);
    ossa_load_options opt = {.format = OSSA_FORMAT_XSF};
    ossa_model *mw = NULL;
    ossa_load_memory(wrong, strlen(wrong), "f.xsf", &opt, &mw, &err);
    CHECK(mw == NULL && err.status == OSSA_ERR_FORMAT && err.line == 1);
    CHECK(strstr(err.message, "MAGIC") != NULL);

    /* Wrong root element. */
    expect_fail("<HEADER MAGIC=\"XSF\" VERSION=\"910\"/>\n<MESH/>\n", "g.xsf", OSSA_ERR_FORMAT, 2,
                "MESH");
    /* Version outside 699..1301. */
    expect_fail("<HEADER MAGIC=\"XSF\" VERSION=\"5000\"/>\n<SKELETON/>\n", "h.xsf",
                OSSA_ERR_VERSION, 1, "5000");
}

static void test_skeleton_errors(void)
{
    /* Missing ROTATION: named with the bone and the BONE line. */
    expect_fail("<HEADER MAGIC=\"XSF\" VERSION=\"910\"/>\n<SKELETON>\n"
                "  <BONE NAME=\"Bip01\">\n"
                "    <TRANSLATION>1 2 3</TRANSLATION>\n"
                "    <LOCALTRANSLATION>0 0 0</LOCALTRANSLATION>\n"
                "    <LOCALROTATION>0 0 0 1</LOCALROTATION>\n"
                "    <PARENTID>-1</PARENTID>\n"
                "  </BONE>\n</SKELETON>\n",
                "r.xsf", OSSA_ERR_FORMAT, 3, "Bip01': no <ROTATION>");
    /* NaN text. */
    expect_fail("<HEADER MAGIC=\"XSF\" VERSION=\"910\"/>\n<SKELETON>\n"
                "  <BONE NAME=\"Bip01\">\n"
                "    <TRANSLATION>1 nan 3</TRANSLATION>\n"
                "    <ROTATION>0 0 0 1</ROTATION>\n"
                "    <LOCALTRANSLATION>0 0 0</LOCALTRANSLATION>\n"
                "    <LOCALROTATION>0 0 0 1</LOCALROTATION>\n"
                "    <PARENTID>-1</PARENTID>\n"
                "  </BONE>\n</SKELETON>\n",
                "n.xsf", OSSA_ERR_VALUE, 4, "not a finite number");
    /* Trailing garbage, too few numbers, too many numbers. */
    expect_fail("<SKELETON VERSION=\"1000\"><BONE NAME=\"a\">\n<TRANSLATION>1 2 3x</TRANSLATION>"
                "</BONE></SKELETON>",
                "t.xsf", OSSA_ERR_VALUE, 2, "'3x' is not a number");
    expect_fail("<SKELETON VERSION=\"1000\"><BONE NAME=\"a\">\n<TRANSLATION>1 2</TRANSLATION>"
                "</BONE></SKELETON>",
                "t2.xsf", OSSA_ERR_VALUE, 2, "3 numbers expected, found 2");
    expect_fail("<SKELETON VERSION=\"1000\"><BONE NAME=\"a\">\n<TRANSLATION>1 2 3 4</TRANSLATION>"
                "</BONE></SKELETON>",
                "t3.xsf", OSSA_ERR_VALUE, 2, "after the 3 numbers");
    expect_fail("<SKELETON VERSION=\"1000\"><BONE NAME=\"a\">\n<TRANSLATION>1e39 2 3</TRANSLATION>"
                "</BONE></SKELETON>",
                "t4.xsf", OSSA_ERR_VALUE, 2, "finite");
    /* Lines count from the file's first line whatever precedes the root: BOM, declaration,
     * blank lines before the declaration. */
    expect_fail("\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<SKELETON VERSION=\"1000\">\n"
                "<BONE NAME=\"a\">\n<TRANSLATION>1 2 x</TRANSLATION></BONE></SKELETON>",
                "bom.xsf", OSSA_ERR_VALUE, 4, "'x' is not a number");
    expect_fail("\n\n<?xml version=\"1.0\"?>\n<SKELETON VERSION=\"1000\">\n"
                "<BONE NAME=\"a\">\n<TRANSLATION>1 2 x</TRANSLATION></BONE></SKELETON>",
                "lead.xsf", OSSA_ERR_VALUE, 6, "'x' is not a number");
    /* Parent id out of range. */
    expect_fail("<HEADER MAGIC=\"XSF\" VERSION=\"910\"/>\n<SKELETON>\n"
                "  <BONE NAME=\"Bip01\">\n" BONE_BODY
                "    <PARENTID>99</PARENTID>\n"
                "  </BONE>\n</SKELETON>\n",
                "p.xsf", OSSA_ERR_RANGE, 8, "BONE 'Bip01': PARENTID 99 not in -1..0");
    /* Child id out of range. */
    expect_fail("<SKELETON VERSION=\"910\">\n  <BONE NAME=\"a\">\n" BONE_BODY
                "    <PARENTID>-1</PARENTID>\n    <CHILDID>7</CHILDID>\n  </BONE>\n</SKELETON>\n",
                "c.xsf", OSSA_ERR_RANGE, 8, "CHILDID 7");
    /* Malformed XML: the parser's message and line. */
    expect_fail("<HEADER MAGIC=\"XSF\" VERSION=\"910\"/>\n<SKELETON>\n  <BONE NAME=\"a\">\n"
                "</SKELETON>\n",
                "m.xsf", OSSA_ERR_FORMAT, 4,
                "XML: tag mismatch: <BONE> (opened on line 3) is closed by </SKELETON>");
    /* Messages speak of the file, never of the element Ossa wraps it in. */
    expect_fail("<HEADER MAGIC=\"XSF\" VERSION=\"910\"/>\n<SKELETON>\n  <BONE NAME=\"a\">\n",
                "open.xsf", OSSA_ERR_FORMAT, 4,
                "XML: the file ends inside <BONE> (opened on line 3): </BONE> is missing");
    expect_fail("<HEADER MAGIC=\"XSF\" VERSION=\"910\"/>\n<SKELETON/>\n</BONE>\n", "close.xsf",
                OSSA_ERR_FORMAT, 3, "XML: </BONE> closes an element that was never opened");
    /* Empty and element-less input. */
    expect_fail("", "empty.xsf", OSSA_ERR_FORMAT, -1, NULL);
    expect_fail("just text\n", "text.xsf", OSSA_ERR_FORMAT, 1, "no XML element");
}

static void test_entities(void)
{
    /* An external entity in a DTD: never loaded, never expanded; the DTD itself is refused. */
    expect_fail("<?xml version=\"1.0\"?>\n"
                "<!DOCTYPE SKELETON [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n"
                "<SKELETON VERSION=\"1000\"><BONE NAME=\"&xxe;\"/></SKELETON>\n",
                "x.xsf", OSSA_ERR_FORMAT, 2, "DTD");
    expect_fail("<!DOCTYPE SKELETON SYSTEM \"http://127.0.0.1:9/cal3d.dtd\">\n"
                "<SKELETON VERSION=\"1000\"/>\n",
                "x2.xsf", OSSA_ERR_FORMAT, 1, "DTD");
    /* Billion laughs style internal entities: refused the same way. */
    expect_fail("<HEADER MAGIC=\"XSF\" VERSION=\"910\"/>\n"
                "<!ENTITY a \"aaaaaaaaaa\">\n<SKELETON/>\n",
                "x3.xsf", OSSA_ERR_FORMAT, 2, NULL);
    /* An undeclared entity reference is a parse error, not an expansion. */
    expect_fail("<HEADER MAGIC=\"XSF\" VERSION=\"910\"/>\n<SKELETON>\n"
                "  <BONE NAME=\"&xxe;\"/>\n</SKELETON>\n",
                "x4.xsf", OSSA_ERR_FORMAT, 3, "xxe");
    /* No declaration and not UTF-8: read as Latin-1 (old exporters), with a warning. */
    ossa_error lerr;
    ossa_model *lm = load("<SKELETON VERSION=\"1000\">\n  <BONE NAME=\"caf\xE9\">\n" BONE_BODY
                          "    <PARENTID>-1</PARENTID>\n  </BONE>\n</SKELETON>\n",
                          "latin.xsf", &lerr);
    CHECKF(lm && strcmp(lm->bones[0].name, "caf\xC3\xA9") == 0, "%s", lerr.message);
    if (lm)
        CHECK(has_warning(lm, "ISO-8859-1"));
    ossa_model_destroy(lm);
    /* Predefined entities and character references are ordinary text. */
    ossa_error err;
    ossa_model *m = load("<SKELETON VERSION=\"1000\">\n  <BONE NAME=\"a&amp;b&#x41;\">\n" BONE_BODY
                         "    <PARENTID>-1</PARENTID>\n  </BONE>\n</SKELETON>\n",
                         "amp.xsf", &err);
    CHECKF(m && strcmp(m->bones[0].name, "a&bA") == 0, "%s", err.message);
    ossa_model_destroy(m);
}

/* A skeleton and an animation written to a temporary folder and loaded as one model. */
static ossa_model *load_pair(const char *dir, const char *xsf, const char *xaf, ossa_error *err)
{
    char p1[512], p2[512];
    snprintf(p1, sizeof p1, "%s/s.xsf", dir);
    snprintf(p2, sizeof p2, "%s/anim.xaf", dir);
    FILE *f = fopen(p1, "wb");
    if (f) {
        fputs(xsf, f);
        fclose(f);
    }
    f = fopen(p2, "wb");
    if (f) {
        fputs(xaf, f);
        fclose(f);
    }
    const char *paths[2] = {p2, p1}; /* skeleton second on purpose: the loader reorders */
    ossa_model *m = NULL;
    ossa_load_files(paths, 2, NULL, &m, err);
    remove(p1);
    remove(p2);
    return m;
}

static void test_animation(void)
{
    char dir[] = "/tmp/ossa-xml-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(!"mkdtemp");
        return;
    }
    /* D5 in each of its three forms, plus sorting, flags and the version override. */
    const char *xaf =
        "<HEADER MAGIC=\"XAF\" VERSION=\"910\"/>\n"
        "<ANIMATION VERSION=\"919\" DURATION=\"2\" NUMTRACKS=\"3\">\n"
        "  <TRACK BONEID=\"1\" NUMKEYFRAMES=\"3\" TRANSLATIONREQUIRED=\"1\" TRANSLATIONISDYNAMIC=\"0\">\n"
        "    <KEYFRAME TIME=\"0\"><TRANSLATION>7 8 9</TRANSLATION><ROTATION>0 0 0 1</ROTATION></KEYFRAME>\n"
        "    <KEYFRAME TIME=\"2\"><ROTATION>0.5 0.5 0.5 0.5</ROTATION></KEYFRAME>\n"
        "    <KEYFRAME TIME=\"1\"><ROTATION>1 0 0 0</ROTATION></KEYFRAME>\n"
        "  </TRACK>\n"
        "  <TRACK BONEID=\"0\" TRANSLATIONREQUIRED=\"0\" HIGHRANGEREQUIRED=\"0\">\n"
        "    <KEYFRAME TIME=\"0\"><ROTATION>0 0 0.7071068 0.7071068</ROTATION></KEYFRAME>\n"
        "  </TRACK>\n"
        "</ANIMATION>\n";
    ossa_error err;
    ossa_model *m = load_pair(dir, xsf_header, xaf, &err);
    CHECKF(m != NULL, "%s", err.message);
    if (m) {
        CHECK(m->bone_count == 2 && m->clip_count == 1);
        const ossa_clip *c = &m->clips[0];
        CHECK(strcmp(c->name, "anim") == 0 && c->duration == 2.0f && c->version == 919);
        CHECK(c->format == OSSA_FORMAT_XAF && c->track_count == 2);
        CHECK(has_warning(m, "NUMTRACKS"));
        const ossa_track *t = &c->tracks[0];
        CHECK(t->bone == 1 && t->key_count == 3);
        CHECK(t->flags == (OSSA_TRACK_TRANSLATION_REQUIRED | OSSA_TRACK_HIGH_RANGE));
        /* Sorted: times 0, 1, 2; keys 2 and 3 of the file copied the previous translation. */
        CHECK(t->times[0] == 0.0f && t->times[1] == 1.0f && t->times[2] == 2.0f);
        for (int k = 0; k < 3; k++)
            CHECK(t->translations[3 * k] == 7.0f && t->translations[3 * k + 2] == 9.0f);
        CHECK(t->rotations[4 * 1 + 0] == -1.0f && t->rotations[4 * 1 + 3] == 0.0f);
        CHECK(t->rotations[4 * 2 + 0] == -0.5f && t->rotations[4 * 2 + 3] == 0.5f);
        const ossa_track *r = &c->tracks[1];
        /* Not required: the skeleton's rest translation of bone 0 (1 2 3). */
        CHECK(r->bone == 0 && r->key_count == 1 && r->flags == OSSA_TRACK_TRANSLATION_DYNAMIC);
        CHECK(r->translations[0] == 1.0f && r->translations[1] == 2.0f && r->translations[2] == 3.0f);
        CHECK_NEAR(r->rotations[2], -0.7071068, 1e-7);
    }
    ossa_model_destroy(m);

    /* Without a skeleton, rotation-only keys of a dynamic track get 0. */
    ossa_model *a = load("<ANIMATION VERSION=\"1000\" DURATION=\"1\">\n  <TRACK BONEID=\"3\">\n"
                         "    <KEYFRAME TIME=\"0\"><ROTATION>0 0 0 1</ROTATION></KEYFRAME>\n"
                         "  </TRACK>\n</ANIMATION>\n",
                         "z.xaf", &err);
    CHECKF(a && a->clips[0].tracks[0].bone == 3 && a->clips[0].tracks[0].translations[0] == 0.0f,
           "%s", err.message);
    if (a)
        CHECK(a->clips[0].tracks[0].flags == 7u);
    ossa_model_destroy(a);

    /* Bone id out of the skeleton's range: the TRACK line. */
    const char *bad = "<HEADER MAGIC=\"XAF\" VERSION=\"910\"/>\n<ANIMATION DURATION=\"1\">\n"
                      "  <TRACK BONEID=\"5\">\n"
                      "    <KEYFRAME TIME=\"0\"><ROTATION>0 0 0 1</ROTATION></KEYFRAME>\n"
                      "  </TRACK>\n</ANIMATION>\n";
    m = load_pair(dir, xsf_header, bad, &err);
    CHECK(m == NULL && err.status == OSSA_ERR_RANGE && err.line == 3);
    CHECKF(strstr(err.file, "anim.xaf") != NULL, "%s", err.file);
    ossa_model_destroy(m);
    expect_fail("<ANIMATION VERSION=\"1000\" DURATION=\"1\">\n  <TRACK BONEID=\"999999\">\n"
                "<KEYFRAME TIME=\"0\"><ROTATION>0 0 0 1</ROTATION></KEYFRAME></TRACK></ANIMATION>",
                "big.xaf", OSSA_ERR_RANGE, 2, "bone id");
    /* Missing ROTATION in a key, empty track, bad duration. */
    expect_fail("<ANIMATION VERSION=\"1000\" DURATION=\"1\">\n  <TRACK BONEID=\"0\">\n"
                "    <KEYFRAME TIME=\"0\">\n<TRANSLATION>0 0 0</TRANSLATION></KEYFRAME>\n"
                "  </TRACK>\n</ANIMATION>\n",
                "nr.xaf", OSSA_ERR_FORMAT, 3, "no <ROTATION>");
    expect_fail("<ANIMATION VERSION=\"1000\" DURATION=\"1\">\n  <TRACK BONEID=\"0\"/>\n</ANIMATION>",
                "nk.xaf", OSSA_ERR_FORMAT, 2, "no KEYFRAME");
    expect_fail("<ANIMATION VERSION=\"1000\" DURATION=\"-1\">\n</ANIMATION>", "nd.xaf",
                OSSA_ERR_VALUE, 1, "DURATION");
    expect_fail("<ANIMATION VERSION=\"1000\" DURATION=\"inf\">\n</ANIMATION>", "nd2.xaf",
                OSSA_ERR_VALUE, 1, "finite");
    rmdir(dir);
}

static const char xmf_text[] =
    "<HEADER MAGIC=\"XMF\" VERSION=\"919\"/>\n"
    "<MESH NUMSUBMESH=\"1\">\n"
    "  <SUBMESH NUMVERTICES=\"3\" NUMFACES=\"1\" NUMLODSTEPS=\"0\" NUMSPRINGS=\"1\" NUMTEXCOORDS=\"1\" NUMMORPHS=\"1\" MATERIAL=\"0\">\n"
    "    <VERTEX ID=\"0\" NUMINFLUENCES=\"2\">\n"
    "      <POS>0 0 0</POS><NORM>0 0 1</NORM><COLOR>1 0 0</COLOR>\n"
    "      <COLLAPSEID>2</COLLAPSEID><COLLAPSECOUNT>1</COLLAPSECOUNT>\n"
    "      <TEXCOORD>0.25 0.75</TEXCOORD>\n"
    "      <INFLUENCE ID=\"0\">0.25</INFLUENCE><INFLUENCE ID=\"1\">0.75</INFLUENCE>\n"
    "      <PHYSIQUE>0</PHYSIQUE>\n"
    "    </VERTEX>\n"
    "    <VERTEX ID=\"1\" NUMINFLUENCES=\"1\">\n"
    "      <POS>1 0 0</POS><NORM>0 0 1</NORM>\n"
    "      <TEXCOORD>1 0</TEXCOORD><INFLUENCE ID=\"1\">1</INFLUENCE><PHYSIQUE>0.5</PHYSIQUE>\n"
    "    </VERTEX>\n"
    "    <VERTEX ID=\"2\" NUMINFLUENCES=\"0\">\n"
    "      <POS>0 1 0</POS><NORM>0 0 1</NORM><TEXCOORD>0 1</TEXCOORD><PHYSIQUE>1</PHYSIQUE>\n"
    "    </VERTEX>\n"
    "    <SPRING VERTEXID=\"1 2\" COEF=\"0.5\" LENGTH=\"1.5\"/>\n"
    "    <MORPH NAME=\"smile\" NUMBLENDVERTS=\"1\">\n"
    "      <BLENDVERTEX VERTEXID=\"1\">\n"
    "        <POSITION>1.5 0.25 0</POSITION><NORMAL>0 1 0</NORMAL><TEXCOORD>0.5 0.5</TEXCOORD>\n"
    "      </BLENDVERTEX>\n"
    "    </MORPH>\n"
    "    <FACE VERTEXID=\"0 1 2\"/>\n"
    "  </SUBMESH>\n"
    "</MESH>\n";

static void test_mesh(void)
{
    ossa_error err;
    ossa_model *m = load(xmf_text, "body.xmf", &err);
    CHECKF(m && m->mesh_count == 1, "%s", err.message);
    if (m && m->mesh_count == 1) {
        const ossa_mesh *mesh = &m->meshes[0];
        CHECK(strcmp(mesh->name, "body") == 0 && mesh->format == OSSA_FORMAT_XMF);
        CHECK(mesh->version == 919 && mesh->submesh_count == 1);
        const ossa_submesh *s = &mesh->submeshes[0];
        CHECK(s->vertex_count == 3 && s->face_count == 1 && s->uv_set_count == 1);
        CHECK(s->material == 0 && s->max_influences == 2 && !s->winding_flipped);
        CHECK(s->positions[3] == 1.0f && s->normals[2] == 1.0f);
        CHECK(s->colors && s->colors[0] == 1.0f && s->colors[1] == 0.0f);
        CHECK(s->colors && s->colors[3] == 1.0f && s->colors[4] == 1.0f); /* white default */
        CHECK(s->collapse_id[0] == 2 && s->face_collapse_count[0] == 1 && s->collapse_id[1] == -1);
        CHECK(s->uvs[0] == 0.25f && s->uvs[1] == 0.75f);
        CHECK(s->influence_start[0] == 0 && s->influence_start[1] == 2 &&
              s->influence_start[2] == 3 && s->influence_start[3] == 3);
        CHECK(s->influences[1].bone == 1 && s->influences[1].weight == 0.75f);
        CHECK(s->spring_count == 1 && s->springs[0].vertex[0] == 1 &&
              s->springs[0].idle_length == 1.5f);
        CHECK(s->physique_weights && s->physique_weights[1] == 0.5f);
        CHECK(s->morph_count == 1 && strcmp(s->morphs[0].name, "smile") == 0);
        CHECK(s->morphs[0].count == 1 && s->morphs[0].vertex[0] == 1);
        CHECK(s->morphs[0].d_position[0] == 0.5f && s->morphs[0].d_position[1] == 0.25f);
        CHECK(s->morphs[0].d_normal[1] == 1.0f && s->morphs[0].d_normal[2] == -1.0f);
        CHECK(s->morphs[0].d_uv && s->morphs[0].d_uv[0] == -0.5f && s->morphs[0].d_uv[1] == 0.5f);
        /* No winding flip (D7). */
        CHECK(s->indices[0] == 0 && s->indices[1] == 1 && s->indices[2] == 2);
    }
    ossa_model_destroy(m);

    /* invert_v applies to vertices and morph targets alike. */
    ossa_load_options opt = {.invert_v = 1};
    m = NULL;
    ossa_load_memory(xmf_text, strlen(xmf_text), "body.xmf", &opt, &m, &err);
    CHECKF(m != NULL, "%s", err.message);
    if (m) {
        CHECK(m->meshes[0].submeshes[0].uvs[1] == 0.25f);
        CHECK(m->meshes[0].submeshes[0].morphs[0].d_uv[1] == -0.5f);
    }
    ossa_model_destroy(m);

    /* A huge NUMVERTICES with few children fails before allocating; so does a smaller lie. */
    char huge[8192];
    snprintf(huge, sizeof huge, "%s", xmf_text);
    char *nv = strstr(huge, "NUMVERTICES=\"3\"");
    char tail[8192];
    snprintf(tail, sizeof tail, "%s", nv + strlen("NUMVERTICES=\"3\""));
    snprintf(nv, sizeof huge - (size_t)(nv - huge), "NUMVERTICES=\"2147483648\"%s", tail);
    expect_fail(huge, "huge.xmf", OSSA_ERR_RANGE, 3, "NUMVERTICES 2147483648");
    nv = strstr(huge, "NUMVERTICES=\"2147483648\"");
    snprintf(tail, sizeof tail, "%s", nv + strlen("NUMVERTICES=\"2147483648\""));
    snprintf(nv, sizeof huge - (size_t)(nv - huge), "NUMVERTICES=\"1000\"%s", tail);
    expect_fail(huge, "lie.xmf", OSSA_ERR_FORMAT, 3, "but 3 VERTEX");

    /* Face and spring vertex ids out of range, bad morph order. */
    char bad[8192];
    snprintf(bad, sizeof bad, "%s", xmf_text);
    memcpy(strstr(bad, "\"0 1 2\""), "\"0 1 3\"", 7);
    expect_fail(bad, "face.xmf", OSSA_ERR_RANGE, 24, "vertex 3 not in 0..2");
    snprintf(bad, sizeof bad, "%s", xmf_text);
    memcpy(strstr(bad, "\"1 2\""), "\"1 9\"", 5);
    expect_fail(bad, "spring.xmf", OSSA_ERR_RANGE, 18, "SPRING VERTEXID");
    snprintf(bad, sizeof bad, "%s", xmf_text);
    memcpy(strstr(bad, "ID=\"1\">1<"), "ID=\"x\">1<", 9);
    expect_fail(bad, "infl.xmf", OSSA_ERR_VALUE, 13, "not an integer");
    snprintf(bad, sizeof bad, "%s", xmf_text);
    memcpy(strstr(bad, "<TEXCOORD>1 0</TEXCOORD>"), "<TEXCOORD>1 0</TEXCOORX>", 24);
    expect_fail(bad, "tag.xmf", OSSA_ERR_FORMAT, 13, "XML:");
}

static void test_material_and_morph_clip(void)
{
    ossa_error err;
    ossa_model *m = load("<HEADER MAGIC=\"XRF\" VERSION=\"910\"/>\n<MATERIAL NUMMAPS=\"3\">\n"
                         "  <AMBIENT>255 0 51 255</AMBIENT>\n  <DIFFUSE>0 0 0 0</DIFFUSE>\n"
                         "  <SPECULAR>255 255 255 0</SPECULAR>\n  <SHININESS>0.5</SHININESS>\n"
                         "  <MAP TYPE=\"Opacity\"> hair.tga </MAP>\n  <MAP>skin.tga</MAP>\n"
                         "</MATERIAL>\n",
                         "dir/hair.xrf", &err);
    CHECKF(m && m->material_count == 1, "%s", err.message);
    if (m && m->material_count == 1) {
        const ossa_material *mt = &m->materials[0];
        CHECK(strcmp(mt->name, "hair") == 0 && mt->version == 910);
        CHECK(mt->ambient[0] == 1.0f && mt->ambient[1] == 0.0f && mt->ambient[2] == 0.2f);
        CHECK(mt->shininess == 0.5f && mt->map_count == 2);
        CHECK(strcmp(mt->maps[0].file, "hair.tga") == 0 && strcmp(mt->maps[0].type, "Opacity") == 0);
        CHECK(strcmp(mt->maps[0].path, "dir/hair.tga") == 0 && strcmp(mt->maps[1].type, "") == 0);
        CHECK(has_warning(m, "NUMMAPS"));
    }
    ossa_model_destroy(m);
    /* A colour out of 0..255 wraps as libcal3d's unsigned char cast does (test_xrf_colours.c). */
    m = load("<MATERIAL VERSION=\"1000\">\n<AMBIENT>256 0 0 0</AMBIENT>\n<DIFFUSE>0 0 0 0</DIFFUSE>"
             "\n<SPECULAR>0 0 0 0</SPECULAR>\n<SHININESS>1</SHININESS>\n</MATERIAL>", "c.xrf", &err);
    CHECKF(m && m->material_count == 1 && m->materials[0].ambient[0] == 0.0f &&
               has_warning(m, "libcal3d 0.11"),
           "%s", err.message);
    ossa_model_destroy(m);
    expect_fail("<MATERIAL VERSION=\"1000\">\n<AMBIENT>1 0 0 0</AMBIENT>\n</MATERIAL>", "d.xrf",
                OSSA_ERR_FORMAT, 1, "DIFFUSE");

    /* Upstream-style XPF: NUMTRACKS, MORPHNAME as written, WEIGHT child; keys get sorted. */
    m = load("<ANIMATION VERSION=\"1300\" NUMTRACKS=\"2\" DURATION=\"1\">\n"
             "  <TRACK NUMKEYFRAMES=\"2\" MORPHNAME=\"3\" MESHID=\"0\">\n"
             "    <KEYFRAME TIME=\"1\"><WEIGHT>0.5</WEIGHT></KEYFRAME>\n"
             "    <KEYFRAME TIME=\"0\"><WEIGHT>0.25</WEIGHT></KEYFRAME>\n"
             "  </TRACK>\n"
             "  <TRACK MORPHNAME=\"empty\"/>\n"
             "</ANIMATION>\n",
             "talk.xpf", &err);
    CHECKF(m && m->morph_clip_count == 1, "%s", err.message);
    if (m && m->morph_clip_count == 1) {
        const ossa_morph_clip *c = &m->morph_clips[0];
        CHECK(strcmp(c->name, "talk") == 0 && c->track_count == 2 && c->version == 1300);
        CHECK(strcmp(c->tracks[0].morph_name, "3") == 0 && c->tracks[0].key_count == 2);
        CHECK(c->tracks[0].times[0] == 0.0f && c->tracks[0].weights[0] == 0.25f);
        CHECK(c->tracks[1].key_count == 0);
    }
    ossa_model_destroy(m);
    expect_fail("<HEADER MAGIC=\"XPF\" VERSION=\"919\"/>\n<ANIMATION DURATION=\"1\">\n"
                "  <TRACK MORPHNAME=\"a\">\n    <KEYFRAME TIME=\"0\"><WEIGHT>NaN</WEIGHT></KEYFRAME>\n"
                "  </TRACK>\n</ANIMATION>\n",
                "w.xpf", OSSA_ERR_VALUE, 4, "WEIGHT");
}

int main(void)
{
    test_skeleton_styles();
    test_skeleton_errors();
    test_entities();
    test_animation();
    test_mesh();
    test_material_and_morph_clip();
    return test_finish("xml-strings");
}
