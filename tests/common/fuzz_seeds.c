/* Seed files written field by field from docs/FORMATS.md (Cal3D binary
 * and XML layouts, D2). Three bones (listed children-first, so loaders must reorder), one animated
 * clip, one skinned quad with a spring, a material with two maps, a morph track; classic v1000, the
 * v1200 CAF (plain and quantised), IMVU v919 (node lights, vertex colours, a morph target), and the
 * two 1300/1301 lineages of the CSF and CMF: upstream v1301 (lights, colours, a morph target) and
 * mp3butcher v1300 (a morph target only). */
#include "fuzz_seeds.h"
#include "seeds_c3s.h"
#include "seeds_cff.h"
#include "seeds_skm.h"
#include "test_wbuf.h"

#include <stdlib.h>
#include <string.h>

static void put_text(wbuf *w, const char *s) { put_bytes(w, s, strlen(s)); }

static const float identity_q[4] = {0, 0, 0, 1};

/* Bones in file order: spine (parent 2), head (parent 0), hips (root). lights: a scene ambient
 * colour and node lights (IMVU, upstream >= 1300; not the mp3butcher fork). */
static void csf(wbuf *w, uint32_t version, int lights)
{
    put_bytes(w, "CSF\0", 4);
    put_u32(w, version);
    put_u32(w, 3);
    if (lights)
        put_f32v(w, (const float[]){0.2f, 0.2f, 0.25f}, 3);
    static const char *const names[3] = {"spine", "head", "hips"};
    static const float rel_t[3][3] = {{0, 0, 0.5f}, {0, 0, 0.3f}, {0, 0, 1}};
    static const float inv_t[3][3] = {{0, 0, -1.5f}, {0, 0, -1.8f}, {0, 0, -1}};
    static const int32_t parent[3] = {2, 0, -1};
    static const int32_t child[3] = {1, -1, 0};
    for (int i = 0; i < 3; i++) {
        put_string(w, names[i]);
        put_f32v(w, rel_t[i], 3);
        put_f32v(w, i == 0 ? (const float[]){0, 0, 0.3826834f, 0.9238795f} : identity_q, 4);
        put_f32v(w, inv_t[i], 3);
        put_f32v(w, identity_q, 4);
        put_i32(w, parent[i]);
        if (lights) {
            put_i32(w, i == 1 ? 1 : 0);
            put_f32v(w, (const float[]){1, 0.9f, 0.8f}, 3);
        }
        put_u32(w, child[i] >= 0 ? 1 : 0);
        if (child[i] >= 0)
            put_i32(w, child[i]);
    }
}

static void caf_plain(wbuf *w, uint32_t version)
{
    put_bytes(w, "CAF\0", 4);
    put_u32(w, version);
    put_f32(w, 1.0f);
    put_u32(w, 2);
    if (version >= 1200)
        put_u32(w, 0); /* flags: plain tracks */
    static const uint32_t bones[2] = {0, 2};
    for (int t = 0; t < 2; t++) {
        put_u32(w, bones[t]);
        put_u32(w, 3);
        for (int k = 0; k < 3; k++) {
            float time = 0.5f * (float)k;
            put_f32(w, time);
            put_f32v(w, (const float[]){0.1f * (float)k, 0, t ? 1.0f : 0.5f}, 3);
            put_f32v(w, k == 1 ? (const float[]){0, 0, 0.7071068f, 0.7071068f} : identity_q, 4);
        }
    }
}

/* v1200 quantised tracks (D2): min + raw x scale, 16-bit time, 3-word quaternion whose
 * low bits of words 1 and 2 say which component is dropped (3: w). */
static void caf_quantised(wbuf *w)
{
    put_bytes(w, "CAF\0", 4);
    put_u32(w, 1200);
    put_f32(w, 2.0f);
    put_u32(w, 1);
    put_u32(w, 1); /* flags bit 0: quantised */
    put_u32(w, 0);
    put_u32(w, 2);
    put_f32v(w, (const float[]){-1, -1, -1}, 3);
    put_f32v(w, (const float[]){0.001f, 0.001f, 0.002f}, 3);
    /* key 0: t=0, translation (0, 0, 0), identity rotation */
    put_u16(w, 0);
    put_u32(w, 1000u | 1000u << 11 | 500u << 22);
    put_u16(w, 0); put_u16(w, 1); put_u16(w, 1);
    /* key 1: t=duration, translation (0.5, 0, 0), 90 degrees about z */
    put_u16(w, 65535);
    put_u32(w, 1500u | 1000u << 11 | 500u << 22);
    put_u16(w, 0); put_u16(w, 1); put_u16(w, 32767);
}

/* One submesh: a quad of 4 vertices, 2 faces, one UV set, 1-2 influences, one spring; a morph
 * target where the layout has morph targets (IMVU, >= 1300), vertex colours when colors is set
 * (IMVU, upstream >= 1300; not the mp3butcher fork). */
static void cmf(wbuf *w, uint32_t version, int colors)
{
    int morphs = (version >= 911 && version <= 919) || version >= 1300;
    put_bytes(w, "CMF\0", 4);
    put_u32(w, version);
    put_u32(w, 1);
    put_i32(w, 0);   /* material thread */
    put_u32(w, 4);   /* vertices */
    put_u32(w, 2);   /* faces */
    put_u32(w, 0);   /* lod steps */
    put_u32(w, 1);   /* springs */
    put_u32(w, 1);   /* texture coordinate sets */
    if (morphs)
        put_u32(w, 1); /* morph targets */
    static const float pos[4][3] = {{-1, 0, 0}, {1, 0, 0}, {1, 0, 2}, {-1, 0, 2}};
    static const float uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (int v = 0; v < 4; v++) {
        put_f32v(w, pos[v], 3);
        put_f32v(w, (const float[]){0, -1, 0}, 3);
        if (colors)
            put_f32v(w, (const float[]){1, 0.5f, 0.25f}, 3);
        put_i32(w, -1);
        put_u32(w, 0);
        put_f32v(w, uv[v], 2);
        if (v < 2) {
            put_u32(w, 1);
            put_u32(w, 2);
            put_f32(w, 1.0f);
        } else {
            put_u32(w, 2);
            put_u32(w, 0);
            put_f32(w, 0.75f);
            put_u32(w, 1);
            put_f32(w, 0.25f);
        }
        put_f32(w, v >= 2 ? 0.5f : 0.0f); /* physique weight (springs > 0) */
    }
    put_u32(w, 2); put_u32(w, 3); put_f32(w, 0.5f); put_f32(w, 2.0f);
    if (morphs) {
        put_string(w, "raise");
        for (uint32_t v = 2; v < 4; v++) {
            put_u32(w, v);
            put_f32v(w, (const float[]){pos[v][0], pos[v][1], pos[v][2] + 0.5f}, 3);
            put_f32v(w, (const float[]){0, -1, 0}, 3);
            put_f32v(w, uv[v], 2);
        }
        put_u32(w, 5); /* terminator: vertex count + 1 */
    }
    put_u32(w, 0); put_u32(w, 1); put_u32(w, 2);
    put_u32(w, 0); put_u32(w, 2); put_u32(w, 3);
}

static void crf(wbuf *w, uint32_t version)
{
    int types = version >= 911 && version <= 919;
    put_bytes(w, "CRF\0", 4);
    put_u32(w, version);
    put_bytes(w, (const uint8_t[]){40, 40, 40, 255, 200, 180, 160, 255, 255, 255, 255, 0}, 12);
    put_f32(w, 12.5f);
    put_u32(w, 2);
    put_string(w, "skin.tga");
    if (types)
        put_string(w, "Diffuse Color");
    put_string(w, "bump.tga");
    if (types)
        put_string(w, "Bump");
}

static void cpf(wbuf *w)
{
    put_bytes(w, "CPF\0", 4);
    put_u32(w, 919);
    put_f32(w, 1.0f);
    put_u32(w, 1);
    put_string(w, "raise");
    put_u32(w, 2);
    put_f32(w, 0.0f); put_f32(w, 0.0f);
    put_f32(w, 1.0f); put_f32(w, 1.0f);
}

static const char xsf_text[] =
    "<HEADER MAGIC=\"XSF\" VERSION=\"1000\"/>\n"
    "<SKELETON NUMBONES=\"2\">\n"
    "  <BONE ID=\"0\" NAME=\"root\" NUMCHILD=\"1\">\n"
    "    <TRANSLATION>0 0 1</TRANSLATION>\n"
    "    <ROTATION>0 0 0 1</ROTATION>\n"
    "    <LOCALTRANSLATION>0 0 -1</LOCALTRANSLATION>\n"
    "    <LOCALROTATION>0 0 0 1</LOCALROTATION>\n"
    "    <PARENTID>-1</PARENTID>\n"
    "    <CHILDID>1</CHILDID>\n"
    "  </BONE>\n"
    "  <BONE ID=\"1\" NAME=\"tip\" NUMCHILD=\"0\">\n"
    "    <TRANSLATION>0 0 0.5</TRANSLATION>\n"
    "    <ROTATION>0 0 0.3826834 0.9238795</ROTATION>\n"
    "    <LOCALTRANSLATION>0 0 -1.5</LOCALTRANSLATION>\n"
    "    <LOCALROTATION>0 0 0 1</LOCALROTATION>\n"
    "    <PARENTID>0</PARENTID>\n"
    "  </BONE>\n"
    "</SKELETON>\n";

static const char xaf_text[] =
    "<HEADER MAGIC=\"XAF\" VERSION=\"1000\"/>\n"
    "<ANIMATION DURATION=\"1\" NUMTRACKS=\"1\">\n"
    "  <TRACK BONEID=\"1\" NUMKEYFRAMES=\"2\">\n"
    "    <KEYFRAME TIME=\"0\">\n"
    "      <TRANSLATION>0 0 0.5</TRANSLATION>\n"
    "      <ROTATION>0 0 0 1</ROTATION>\n"
    "    </KEYFRAME>\n"
    "    <KEYFRAME TIME=\"1\">\n"
    "      <TRANSLATION>0 0.25 0.5</TRANSLATION>\n"
    "      <ROTATION>0 0 0.7071068 0.7071068</ROTATION>\n"
    "    </KEYFRAME>\n"
    "  </TRACK>\n"
    "</ANIMATION>\n";

static const char xmf_text[] =
    "<HEADER MAGIC=\"XMF\" VERSION=\"1000\"/>\n"
    "<MESH NUMSUBMESH=\"1\">\n"
    "  <SUBMESH NUMVERTICES=\"3\" NUMFACES=\"1\" NUMLODSTEPS=\"0\" NUMSPRINGS=\"1\" "
    "NUMTEXCOORDS=\"1\" MATERIAL=\"0\">\n"
    "    <VERTEX ID=\"0\" NUMINFLUENCES=\"1\">\n"
    "      <POS>-1 0 0</POS>\n      <NORM>0 -1 0</NORM>\n      <TEXCOORD>0 0</TEXCOORD>\n"
    "      <INFLUENCE ID=\"0\">1</INFLUENCE>\n      <PHYSIQUE>0</PHYSIQUE>\n"
    "    </VERTEX>\n"
    "    <VERTEX ID=\"1\" NUMINFLUENCES=\"1\">\n"
    "      <POS>1 0 0</POS>\n      <NORM>0 -1 0</NORM>\n      <TEXCOORD>1 0</TEXCOORD>\n"
    "      <INFLUENCE ID=\"0\">1</INFLUENCE>\n      <PHYSIQUE>0</PHYSIQUE>\n"
    "    </VERTEX>\n"
    "    <VERTEX ID=\"2\" NUMINFLUENCES=\"2\">\n"
    "      <POS>0 0 2</POS>\n      <NORM>0 -1 0</NORM>\n      <TEXCOORD>0.5 1</TEXCOORD>\n"
    "      <INFLUENCE ID=\"0\">0.5</INFLUENCE>\n      <INFLUENCE ID=\"1\">0.5</INFLUENCE>\n"
    "      <PHYSIQUE>0.5</PHYSIQUE>\n"
    "    </VERTEX>\n"
    "    <SPRING VERTEXID=\"1 2\" COEF=\"0.5\" LENGTH=\"2\"/>\n"
    "    <FACE VERTEXID=\"0 1 2\"/>\n"
    "  </SUBMESH>\n"
    "</MESH>\n";

static const char xrf_text[] =
    "<HEADER MAGIC=\"XRF\" VERSION=\"1000\"/>\n"
    "<MATERIAL NUMMAPS=\"2\">\n"
    "  <AMBIENT>40 40 40 255</AMBIENT>\n"
    "  <DIFFUSE>200 180 160 255</DIFFUSE>\n"
    "  <SPECULAR>255 255 255 0</SPECULAR>\n"
    "  <SHININESS>12.5</SHININESS>\n"
    "  <MAP>skin.tga</MAP>\n"
    "  <MAP>bump.tga</MAP>\n"
    "</MATERIAL>\n";

static const char xpf_text[] =
    "<HEADER MAGIC=\"XPF\" VERSION=\"919\"/>\n"
    "<ANIMATION DURATION=\"1\" NUMTRACKS=\"1\">\n"
    "  <TRACK MORPHNAME=\"raise\" NUMKEYFRAMES=\"2\">\n"
    "    <KEYFRAME TIME=\"0\">\n      <WEIGHT>0</WEIGHT>\n    </KEYFRAME>\n"
    "    <KEYFRAME TIME=\"1\">\n      <WEIGHT>1</WEIGHT>\n    </KEYFRAME>\n"
    "  </TRACK>\n"
    "</ANIMATION>\n";

enum { SEED_COUNT = 18 };

static void build(wbuf *w, int index)
{
    switch (index) {
    case 0: csf(w, 1000, 0); break;
    case 1: csf(w, 919, 1); break;
    case 2: caf_plain(w, 1000); break;
    case 3: caf_plain(w, 1200); break;
    case 4: caf_quantised(w); break;
    case 5: cmf(w, 1000, 0); break;
    case 6: cmf(w, 919, 1); break;
    case 7: crf(w, 1000); break;
    case 8: cpf(w); break;
    case 9: put_text(w, xsf_text); break;
    case 10: put_text(w, xaf_text); break;
    case 11: put_text(w, xmf_text); break;
    case 12: put_text(w, xrf_text); break;
    case 13: put_text(w, xpf_text); break;
    case 14: csf(w, 1301, 1); break;
    case 15: csf(w, 1300, 0); break;
    case 16: cmf(w, 1301, 1); break;
    default: cmf(w, 1300, 0); break;
    }
}

static const struct { const char *name; ossa_format format; } seed_info[SEED_COUNT] = {
    {"seed_v1000.csf", OSSA_FORMAT_CSF}, {"seed_v919.csf", OSSA_FORMAT_CSF},
    {"seed_v1000.caf", OSSA_FORMAT_CAF}, {"seed_v1200.caf", OSSA_FORMAT_CAF},
    {"seed_v1200_quantised.caf", OSSA_FORMAT_CAF}, {"seed_v1000.cmf", OSSA_FORMAT_CMF},
    {"seed_v919.cmf", OSSA_FORMAT_CMF}, {"seed_v1000.crf", OSSA_FORMAT_CRF},
    {"seed_v919.cpf", OSSA_FORMAT_CPF}, {"seed.xsf", OSSA_FORMAT_XSF},
    {"seed.xaf", OSSA_FORMAT_XAF}, {"seed.xmf", OSSA_FORMAT_XMF},
    {"seed.xrf", OSSA_FORMAT_XRF}, {"seed.xpf", OSSA_FORMAT_XPF},
    {"seed_v1301.csf", OSSA_FORMAT_CSF}, {"seed_v1300_mp3butcher.csf", OSSA_FORMAT_CSF},
    {"seed_v1301.cmf", OSSA_FORMAT_CMF}, {"seed_v1300_mp3butcher.cmf", OSSA_FORMAT_CMF}};

size_t fuzz_seeds_make(fuzz_seed **out)
{
    *out = NULL;
    enum { TOTAL = SEED_COUNT + FUZZ_SKM_SEED_COUNT + FUZZ_C3S_SEED_COUNT + FUZZ_CFF_SEED_COUNT };
    fuzz_seed *seeds = calloc(TOTAL, sizeof *seeds);
    if (!seeds)
        return 0;
    for (int i = 0; i < SEED_COUNT; i++) {
        wbuf w = {0};
        build(&w, i);
        if (w.failed) {
            free(w.data);
            fuzz_seeds_free(seeds, SEED_COUNT);
            return 0;
        }
        seeds[i].name = seed_info[i].name;
        seeds[i].format = seed_info[i].format;
        seeds[i].data = w.data;
        seeds[i].size = w.size;
    }
    if (!fuzz_seeds_skm(seeds + SEED_COUNT) ||
        !fuzz_seeds_c3s(seeds + SEED_COUNT + FUZZ_SKM_SEED_COUNT) ||
        !fuzz_seeds_cff(seeds + SEED_COUNT + FUZZ_SKM_SEED_COUNT + FUZZ_C3S_SEED_COUNT)) {
        fuzz_seeds_free(seeds, TOTAL);
        return 0;
    }
    *out = seeds;
    return TOTAL;
}

void fuzz_seeds_free(fuzz_seed *seeds, size_t count)
{
    if (!seeds)
        return;
    for (size_t i = 0; i < count; i++)
        free(seeds[i].data);
    free(seeds);
}

int fuzz_seed_make_one(const char *name, fuzz_seed *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < SEED_COUNT; i++) {
        if (strcmp(seed_info[i].name, name) != 0)
            continue;
        wbuf w = {0};
        build(&w, i);
        if (w.failed) {
            free(w.data);
            return 0;
        }
        out->name = seed_info[i].name;
        out->format = seed_info[i].format;
        out->data = w.data;
        out->size = w.size;
        return 1;
    }
    return 0;
}
