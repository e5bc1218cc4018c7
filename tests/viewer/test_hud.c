/* ossa-view's HUD without GL or a font file: UTF-8 decoding, the glyph cache (rasterised once a
 * glyph, packed without overlap, dirty rows, restart when full) on a fake rasteriser, the font
 * size for the DPI, the information lines (no frame rate before one is measured; the note of a
 * skeleton without mesh), the panel layout and the view it leaves free, the clip panel's rows
 * (scroll, follow, hit tests), joint labels that never overlap (the selected one always
 * shows), picking a joint, the camera framing the model
 * inside the free view, and its up axis (the engine's guess). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "glyphs.h"
#include "hud.h"
#include "layout.h"
#include "ossa/export.h"
#include "test_common.h"

/* A fake font: every glyph a block 3..7 wide, 8 high on the baseline; 'g', 'j', 'p', 'q', 'y'
 * reach 3 pixels below it; ' ' is blank; code points over 0x2000 are missing. */
typedef struct fake_font {
    uint8_t pixels[16 * 16];
    int calls;
} fake_font;

static bool fake_raster(void *ctx, uint32_t cp, view_glyph_bitmap *out)
{
    fake_font *f = ctx;
    f->calls++;
    if (cp > 0x2000)
        return false;
    out->advance = (int)(cp % 5) + 4;
    if (cp == ' ')
        return true;
    bool descends = strchr("gjpqy", (int)cp) != NULL && cp < 128;
    memset(f->pixels, 200, sizeof f->pixels);
    out->coverage = f->pixels;
    out->pitch = 16;
    out->width = (int)(cp % 5) + 3;
    out->height = descends ? 11 : 8;
    out->x_off = 0;
    out->y_off = -8;
    return true;
}

static void check_utf8(void)
{
    const char *p = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
    CHECK(view_utf8_next(&p) == 'a');
    CHECK(view_utf8_next(&p) == 0xE9);
    CHECK(view_utf8_next(&p) == 0x20AC);
    CHECK(view_utf8_next(&p) == 0x1F600);
    CHECK(view_utf8_next(&p) == 0 && *p == '\0');
    /* A lone continuation byte, a cut sequence, an overlong '/', a surrogate: one U+FFFD a
     * byte at the start, never reading past the end. */
    const char *bad = "\x80" "\xc3" "\xc0\xaf" "\xed\xa0\x80";
    int n = 0;
    uint32_t cp;
    while ((cp = view_utf8_next(&bad)) != 0) {
        CHECK(cp == 0xFFFD || cp == 0xAF || cp == 0x80 || cp == 0xA0);
        n++;
    }
    CHECK(n >= 4);
}

static bool glyphs_overlap(const view_glyph *a, const view_glyph *b)
{
    return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static void check_glyph_cache(void)
{
    view_glyphs g;
    CHECK(view_glyphs_init(&g));
    CHECK(!view_glyphs_has_font(&g) && view_glyphs_get(&g, 'a') == NULL);
    /* The solid block is lit from the start and the whole atlas is to be uploaded. */
    int y0, y1;
    CHECK(g.atlas[0] == 255 && g.atlas[VIEW_GLYPHS_SOLID - 1] == 255);
    CHECK(view_glyphs_dirty(&g, &y0, &y1) && y0 == 0 && y1 == VIEW_GLYPHS_SIDE);
    fake_font font;
    memset(&font, 0, sizeof font);
    view_glyphs_set_font(&g, fake_raster, &font, 8, 3, 13);
    view_glyphs_clean(&g);
    CHECK(!view_glyphs_dirty(&g, &y0, &y1));
    const view_glyph *a = view_glyphs_get(&g, 'a');
    CHECK(a && a->w == 'a' % 5 + 3 && a->advance == 'a' % 5 + 4);
    CHECK(view_glyphs_dirty(&g, &y0, &y1) && y0 <= a->y && y1 >= a->y + a->h);
    CHECK(g.atlas[(size_t)a->y * VIEW_GLYPHS_SIDE + a->x] == 200);
    /* Cached: asking again rasterises nothing, for single glyphs and for text. */
    float w1 = view_glyphs_width(&g, "hello, world\nsecond line");
    int calls = font.calls;
    float w2 = view_glyphs_width(&g, "hello, world\nsecond line");
    CHECK(w1 == w2 && w1 > 0.0f && font.calls == calls);
    CHECK(view_glyphs_get(&g, 'a') == a && font.calls == calls);
    /* A missing code point draws as '?', and is asked for once. */
    const view_glyph *q = view_glyphs_get(&g, 0x3000);
    CHECK(q && q->cp == '?');
    calls = font.calls;
    CHECK(view_glyphs_get(&g, 0x3000) == q && font.calls == calls);
    /* Every printable ASCII and Latin-1 glyph: packed apart, clear of the solid block. */
    for (uint32_t cp = 33; cp < 0x180; cp++)
        CHECK(view_glyphs_get(&g, cp) != NULL);
    const view_glyph solid = {.x = 0, .y = 0, .w = VIEW_GLYPHS_SOLID, .h = VIEW_GLYPHS_SOLID};
    size_t packed = 0, clashes = 0;
    for (size_t i = 0; i < VIEW_GLYPHS_SLOTS; i++) {
        const view_glyph *x = &g.slots[i];
        if (!x->used || !x->w)
            continue;
        packed++;
        clashes += glyphs_overlap(x, &solid);
        for (size_t k = i + 1; k < VIEW_GLYPHS_SLOTS; k++)
            clashes += g.slots[k].used && g.slots[k].w && glyphs_overlap(x, &g.slots[k]);
        CHECK(x->x + x->w <= VIEW_GLYPHS_SIDE && x->y + x->h <= VIEW_GLYPHS_SIDE);
    }
    CHECK(packed > 300 && clashes == 0);
    /* Full: new glyphs are refused for the rest of the frame, then the cache starts again. */
    for (uint32_t cp = 0x180; cp < 0x1000 && !g.restart; cp++)
        view_glyphs_get(&g, cp);
    CHECK(g.restart && view_glyphs_get(&g, 0x1500) == NULL);
    CHECK(view_glyphs_get(&g, 'a') != NULL); /* what is cached still draws this frame */
    view_glyphs_frame(&g);
    CHECK(!g.restart && g.count == 0 && view_glyphs_get(&g, 0x1500) != NULL);
    view_glyphs_free(&g);
}

static void check_pixel_size(void)
{
    CHECK(view_glyphs_pixel_size(13, 96.0f, 1.0f) == 13);
    CHECK(view_glyphs_pixel_size(13, 192.0f, 1.0f) == 26);
    CHECK(view_glyphs_pixel_size(13, 96.0f, 2.0f) == 26);  /* HiDPI drawable */
    CHECK(view_glyphs_pixel_size(13, 144.0f, 1.0f) == 20);
    CHECK(view_glyphs_pixel_size(13, 0.0f, 1.0f) == 13);   /* unknown DPI */
    CHECK(view_glyphs_pixel_size(13, NAN, NAN) == 13);
    CHECK(view_glyphs_pixel_size(13, 5000.0f, 1.0f) == 13); /* a driver's nonsense */
    CHECK(view_glyphs_pixel_size(13, 384.0f, 4.0f) == 64);  /* kept in 8..64 */
    CHECK(view_glyphs_pixel_size(4, 96.0f, 1.0f) == 8);
}

static bool any_line_has(char lines[][256], uint32_t n, const char *text)
{
    for (uint32_t i = 0; i < n; i++)
        if (strstr(lines[i], text))
            return true;
    return false;
}

static void check_info_lines(void)
{
    char lines[VIEW_HUD_INFO_LINES][256];
    view_hud_info in = {.model_name = "m", .clip_name = "walk", .clip_count = 2,
                        .skinning = "cpu avx2", .mode = "loop"};
    uint32_t n = view_hud_info_lines(&in, lines);
    /* No rate measured (a screenshot's single frame): none shown, never "0.0 fps". */
    CHECK(!any_line_has(lines, n, "fps") && any_line_has(lines, n, "skinning cpu avx2"));
    in.frames_per_second = 59.94f;
    n = view_hud_info_lines(&in, lines);
    CHECK(any_line_has(lines, n, "59.9 fps"));
    CHECK(!any_line_has(lines, n, "no mesh"));
    in.skeleton_only = true;
    in.display = "bones";
    n = view_hud_info_lines(&in, lines);
    CHECK(n <= VIEW_HUD_INFO_LINES && any_line_has(lines, n, "no mesh: the skeleton is shown"));
    CHECK(any_line_has(lines, n, "showing bones"));
}

static bool inside(const view_rect *outer, const view_rect *r)
{
    return r->x0 >= outer->x0 && r->y0 >= outer->y0 && r->x1 <= outer->x1 && r->y1 <= outer->y1;
}

static void check_layout(void)
{
    view_layout l;
    view_layout_in in = {.width = 800, .height = 600, .show_info = true, .line_height = 17.0f,
                         .pad = 6.0f, .info_width = 200.0f, .info_lines = 7,
                         .clips_width = 150.0f, .clip_count = 40};
    view_layout_compute(&l, &in);
    view_rect window = {0, 0, 800, 600};
    CHECK(inside(&window, &l.info) && inside(&window, &l.clips) && inside(&window, &l.view));
    CHECK(!view_rect_overlap(&l.view, &l.info) && !view_rect_overlap(&l.view, &l.clips) &&
          !view_rect_overlap(&l.view, &l.timeline_box) && !view_rect_overlap(&l.info, &l.clips));
    CHECK(l.info.x1 == 212.0f && l.view.x0 == 212.0f && l.view.x1 == 800.0f);
    CHECK(l.view.y1 == l.timeline_box.y0 && l.clips.y1 <= l.timeline_box.y0);
    /* 40 clips do not fit: as many rows as the height allows, more than nine. */
    CHECK(l.clip_rows > 9 && l.clip_rows < 40);
    /* Rows: the middle of row k is clip first + k; the header and outside are none. */
    for (uint32_t k = 0; k < l.clip_rows; k++) {
        view_rect r = view_clip_row(&l, k);
        CHECK(inside(&l.clips, &r));
        CHECK(view_clip_at(&l, 5, 40, 0.5f * (r.x0 + r.x1), 0.5f * (r.y0 + r.y1)) == 5 + k);
    }
    CHECK(view_clip_at(&l, 0, 40, 20.0f, l.clips.y0 + 2.0f) == -1);     /* header */
    CHECK(view_clip_at(&l, 0, 40, l.clips.x1 + 1.0f, l.rows_y0 + 1.0f) == -1);
    CHECK(view_clip_at(&l, 0, 40, 20.0f, NAN) == -1);
    /* Following the current clip and scrolling stay within the list. */
    uint32_t rows = l.clip_rows;
    CHECK(view_clip_first(0, 3, 40, rows) == 0);
    CHECK(view_clip_first(0, 39, 40, rows) == 40 - rows);
    CHECK(view_clip_first(30, 2, 40, rows) == 2);
    CHECK(view_clip_first(35, 40, 40, rows) == 40 - rows); /* no current: only kept in range */
    CHECK(view_clip_scroll(0, 3.0f, 40, rows) == 0);
    CHECK(view_clip_scroll(0, -3.0f, 40, rows) == 3);
    CHECK(view_clip_scroll(0, -100.0f, 40, rows) == 40 - rows);
    CHECK(view_clip_first(4, 0, 3, rows) == 0); /* all fit: no scroll */
    /* A few clips: the panel is as tall as they need. */
    in.clip_count = 3;
    view_layout_compute(&l, &in);
    CHECK(l.clip_rows == 3 && l.clips.y1 < 300.0f);
    /* Hidden HUD: the whole window is the view. */
    in.show_info = false;
    view_layout_compute(&l, &in);
    CHECK(l.view.x0 == 0 && l.view.y0 == 0 && l.view.x1 == 800 && l.view.y1 == 600);
    CHECK(l.clip_rows == 0 && view_clip_at(&l, 0, 3, 10.0f, 100.0f) == -1);
    /* Text wider than the window: the sidebar takes at most 40% of it. */
    in.show_info = true;
    in.info_width = 5000.0f;
    view_layout_compute(&l, &in);
    CHECK(l.info.x1 <= 320.0f && l.view.x1 - l.view.x0 >= 480.0f);
}

static void check_label_placement(void)
{
    view_rect box[6] = {
        {10, 10, 60, 25},  {20, 15, 70, 30},   /* overlaps the first */
        {100, 10, 150, 25}, {500, 500, 560, 515}, /* outside the bounds */
        {5, 200, 50, 215},                      /* under a blocked panel */
        {NAN, 0, 0, 0},
    };
    view_rect blocked = {0, 180, 80, 260}, bounds = {0, 0, 400, 300};
    bool keep[6];
    CHECK(view_labels_place(box, 6, SIZE_MAX, &blocked, 1, &bounds, 100, keep) == 2);
    CHECK(keep[0] && !keep[1] && keep[2] && !keep[3] && !keep[4] && !keep[5]);
    /* The selected one goes first and shows even over a panel. */
    CHECK(view_labels_place(box, 6, 4, &blocked, 1, &bounds, 100, keep) == 3);
    CHECK(keep[4] && keep[0] && keep[2]);
    CHECK(view_labels_place(box, 6, 1, &blocked, 1, &bounds, 100, keep) == 2);
    CHECK(keep[1] && !keep[0] && keep[2]);
    CHECK(view_labels_place(box, 6, SIZE_MAX, NULL, 0, &bounds, 1, keep) == 1); /* the cap */
}

/* A HUD on the fake font: all inside the window, and joint names that pile up on one spot
 * show once, while names apart all show, none overlapping another. */
static void check_hud_build(void)
{
    view_glyphs g;
    CHECK(view_glyphs_init(&g));
    fake_font font;
    memset(&font, 0, sizeof font);
    view_glyphs_set_font(&g, fake_raster, &font, 8, 3, 13);
    view_hud h;
    CHECK(view_hud_init(&h, 16384, &g));
    /* Text: the pen moves by the advances, a descender reaches below the line's baseline. */
    view_hud_begin(&h);
    const uint8_t c[4] = {255, 255, 255, 255};
    float end = view_hud_text(&h, 10.0f, 20.0f, "ag", c);
    CHECK(end == 10.0f + (float)('a' % 5 + 4 + 'g' % 5 + 4));
    CHECK(h.count == 2 * 6);
    float base = 20.0f + 8.0f + 1.0f; /* ascent, then half the spare leading */
    CHECK(h.vertices[6 + 2].y == base + 3.0f && h.vertices[2].y == base);
    float cut = view_hud_text_fit(&h, 0.0f, 40.0f, "a rather long line of text", 40.0f, c);
    CHECK(cut <= 40.0f && cut > 20.0f);

    ossa_clip clips[12];
    memset(clips, 0, sizeof clips);
    const char *names[12] = {"walk", "run", "jump", "idle", "wave", "sit", "stand", "crouch",
                             "roll", "climb", "swim", "fly"};
    for (int i = 0; i < 12; i++) {
        clips[i].name = names[i];
        clips[i].duration = 1.0f + (float)i;
    }
    view_joint_label labels[40];
    for (int i = 0; i < 40; i++)
        labels[i] = (view_joint_label){400.0f + 0.5f * (float)i, 300.0f, "joint", (uint32_t)i};
    view_hud_info info = {.width = 800, .height = 600, .show_info = true, .show_help = true,
                          .model_name = "demo", .clip_name = "fly", .clip = 11, .clip_count = 12,
                          .clips = clips, .time = 0.5f, .duration = 1.0f, .speed = 1.0f,
                          .mode = "loop", .skinning = "cpu", .message = "cannot open: x",
                          .labels = labels, .label_count = 40, .selected_label = SIZE_MAX};
    view_layout l;
    view_hud_layout(&h, &info, &l);
    CHECK(l.clip_rows == 12);
    view_hud_begin(&h);
    view_hud_build(&h, &info, &l);
    CHECK(!h.overflow && h.count > 600);
    bool in_window = true;
    for (size_t i = 0; i < h.count; i++)
        in_window &= h.vertices[i].x >= 0.0f && h.vertices[i].x <= 800.0f &&
                     h.vertices[i].y >= 0.0f && h.vertices[i].y <= 600.0f;
    CHECK(in_window);
    CHECK(h.labels_drawn == 1 && h.label_keep[0]);
    /* A selected joint's name shows instead, in the pile. */
    info.selected_label = 17;
    view_hud_begin(&h);
    view_hud_build(&h, &info, &l);
    CHECK(h.labels_drawn == 1 && h.label_keep[17]);
    info.selected_label = SIZE_MAX;
    /* Picking: the nearest joint within the radius, none beyond it. */
    CHECK(view_joint_pick(labels, 40, 409.9f, 303.0f, 5.0f) == 20);
    CHECK(view_joint_pick(labels, 40, 400.0f, 320.0f, 5.0f) == SIZE_MAX);
    /* Spread apart: every name shows; kept boxes never overlap. */
    for (int i = 0; i < 40; i++)
        labels[i] = (view_joint_label){300.0f + 60.0f * (float)(i % 8),
                                       40.0f * (float)(i / 8) + 60.0f, "joint", (uint32_t)i};
    view_hud_begin(&h);
    view_hud_build(&h, &info, &l);
    size_t shown = 0, overlaps = 0;
    for (size_t i = 0; i < 40; i++) {
        shown += h.label_keep[i];
        for (size_t k = i + 1; k < 40; k++)
            overlaps += h.label_keep[i] && h.label_keep[k] &&
                        view_rect_overlap(&h.label_boxes[i], &h.label_boxes[k]);
    }
    CHECKF(shown == h.labels_drawn && shown >= 30 && overlaps == 0, "%zu shown, %zu overlaps",
           shown, overlaps);
    /* No font: boxes still draw, text does not, and nothing breaks. */
    view_glyphs_set_font(&g, NULL, NULL, 0, 0, 0);
    view_hud_begin(&h);
    view_hud_layout(&h, &info, &l);
    view_hud_build(&h, &info, &l);
    CHECK(h.count > 0 && h.labels_drawn == 0 && view_hud_line_height(&h) == 16.0f);
    view_hud_free(&h);
    view_glyphs_free(&g);
}

/* Window pixel of a world point. */
static void project(const float vp[16], const float p[3], float w, float h, float *x, float *y)
{
    float c[4];
    for (int r = 0; r < 4; r++)
        c[r] = vp[r] * p[0] + vp[4 + r] * p[1] + vp[8 + r] * p[2] + vp[12 + r];
    *x = (c[0] / c[3] * 0.5f + 0.5f) * w;
    *y = (0.5f - c[1] / c[3] * 0.5f) * h;
}

static void check_camera_viewport(void)
{
    view_camera cam;
    view_camera_init(&cam);
    const float mn[3] = {-0.3f, 0.0f, -0.2f}, mx[3] = {0.3f, 1.8f, 0.2f};
    view_camera_reset(&cam, mn, mx);
    /* The free view right of a 250-pixel sidebar and above a 40-pixel timeline. */
    view_rect free_view = {250.0f, 0.0f, 800.0f, 560.0f};
    view_camera_set_viewport(&cam, 800, 600, &free_view);
    float vp[16], x, y;
    view_camera_view_proj(&cam, vp);
    project(vp, cam.target, 800.0f, 600.0f, &x, &y);
    CHECK_NEAR(x, 525.0f, 0.01);
    CHECK_NEAR(y, 280.0f, 0.01);
    /* Every corner of the framed box lies in the free view. */
    bool all_in = true;
    for (int k = 0; k < 8; k++) {
        float p[3] = {k & 1 ? mx[0] : mn[0], k & 2 ? mx[1] : mn[1], k & 4 ? mx[2] : mn[2]};
        project(vp, p, 800.0f, 600.0f, &x, &y);
        all_in &= x > free_view.x0 && x < free_view.x1 && y > free_view.y0 && y < free_view.y1;
    }
    CHECK(all_in);
    /* A narrow view backs off further than a wide one (the sphere fits across too). */
    float wide = cam.distance;
    view_camera_frame(&cam, mn, mx);
    view_rect narrow = {600.0f, 0.0f, 800.0f, 600.0f};
    view_camera_set_viewport(&cam, 800, 600, &narrow);
    CHECK(cam.distance > wide);
    /* A zoom after framing keeps the user's distance when the viewport comes. */
    view_camera_frame(&cam, mn, mx);
    view_camera_zoom(&cam, 2.0f);
    float zoomed = cam.distance;
    view_camera_set_viewport(&cam, 800, 600, &free_view);
    CHECK(cam.distance == zoomed);
    /* An empty or outside viewport falls back to the whole window. */
    view_rect empty = {900.0f, 0.0f, 950.0f, 10.0f};
    view_camera_set_viewport(&cam, 800, 600, &empty);
    CHECK(cam.viewport.x0 == 0.0f && cam.viewport.x1 == 800.0f && cam.viewport.y1 == 600.0f);
}

/* The view's up axis is the engine's guess (format first, then how the box stands), over the
 * same vertices as the export's: a hidden mesh counts too. */
static void check_camera_up(void)
{
    const float lo[3] = {0.0f, 0.0f, 0.0f}, tall_y[3] = {1.0f, 2.0f, 1.0f};
    const float tall_z[3] = {1.0f, 1.0f, 2.0f}, bit_y[3] = {1.0f, 1.2f, 1.0f};
    const float nan_box[3] = {NAN, NAN, NAN};
    CHECK(ossa_export_up_of_bounds(OSSA_FORMAT_DEMO, lo, tall_z) == OSSA_EXPORT_UP_Y);
    CHECK(ossa_export_up_of_bounds(OSSA_FORMAT_CFF, lo, tall_z) == OSSA_EXPORT_UP_Y);
    CHECK(ossa_export_up_of_bounds(OSSA_FORMAT_CSF, lo, tall_y) == OSSA_EXPORT_UP_Y);
    CHECK(ossa_export_up_of_bounds(OSSA_FORMAT_CSF, lo, bit_y) == OSSA_EXPORT_UP_Z);
    CHECK(ossa_export_up_of_bounds(OSSA_FORMAT_SKM, lo, nan_box) == OSSA_EXPORT_UP_Z);
    CHECK(ossa_export_up_of_bounds(OSSA_FORMAT_UNKNOWN, lo, bit_y) == OSSA_EXPORT_UP_Y);
    CHECK(ossa_export_up_of_bounds(OSSA_FORMAT_UNKNOWN, lo, tall_z) == OSSA_EXPORT_UP_Z);
    /* a model: one mesh tall along Y, then a hidden one long along Z that tips the box */
    float tall[9] = {0, 0, 0, 0, 2, 0, 0.1f, 0, 0}, deep[9] = {0, 0, 0, 0, 0, 3, 0.1f, 0, 0};
    ossa_submesh sub[2] = {{.vertex_count = 3, .positions = tall},
                           {.vertex_count = 3, .positions = deep}};
    ossa_mesh meshes[2] = {{.submesh_count = 1, .submeshes = &sub[0]},
                           {.submesh_count = 1, .submeshes = &sub[1], .flags = OSSA_MESH_HIDDEN}};
    ossa_model m = {.format = OSSA_FORMAT_CSF, .mesh_count = 1, .meshes = meshes};
    CHECK(view_camera_up_for_model(&m) == VIEW_UP_Y);
    m.mesh_count = 2;
    CHECK(view_camera_up_for_model(&m) == VIEW_UP_Z);
    CHECK(ossa_export_source_up(&m, NULL) == OSSA_EXPORT_UP_Z);
    m.format = OSSA_FORMAT_CFF;
    CHECK(view_camera_up_for_model(&m) == VIEW_UP_Y);
}

int main(void)
{
    check_utf8();
    check_glyph_cache();
    check_pixel_size();
    check_info_lines();
    check_layout();
    check_label_placement();
    check_hud_build();
    check_camera_viewport();
    check_camera_up();
    return test_finish("hud");
}
