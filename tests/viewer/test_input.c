/* ossa-view's GL-free input side: keys to actions, key names, the help table, the timeline's
 * hit-testing and x <-> time mapping, frame-time statistics, the script parser and the mixer
 * cross-fade between two of the demo's clips. (The HUD and its font: test_hud.c.) */
#include <math.h>
#include <string.h>

#include "input.h"
#include "demo.h"
#include "script.h"
#include "test_common.h"

static void check_keys(void)
{
    view_action a = view_key_action(VIEW_KEY_RIGHT, 0);
    CHECK(a.kind == VIEW_ACT_STEP && a.arg == 1);
    a = view_key_action(VIEW_KEY_LEFT, 0);
    CHECK(a.kind == VIEW_ACT_STEP && a.arg == -1);
    CHECK(view_key_action(VIEW_KEY_RIGHT, VIEW_MOD_SHIFT).kind == VIEW_ACT_LAST_FRAME);
    CHECK(view_key_action(VIEW_KEY_LEFT, VIEW_MOD_SHIFT).kind == VIEW_ACT_FIRST_FRAME);
    a = view_key_action(VIEW_KEY_UP, 0);
    CHECK(a.kind == VIEW_ACT_STEP && a.arg == 10);
    a = view_key_action(VIEW_KEY_DOWN, 0);
    CHECK(a.kind == VIEW_ACT_STEP && a.arg == -10);
    CHECK(view_key_action(' ', 0).kind == VIEW_ACT_PLAY_PAUSE);
    a = view_key_action('[', 0);
    CHECK(a.kind == VIEW_ACT_SPEED && a.arg == -1);
    a = view_key_action(VIEW_KEY_KP_PLUS, 0);
    CHECK(a.kind == VIEW_ACT_SPEED && a.arg == 1);
    CHECK(view_key_action('L', 0).kind == VIEW_ACT_CYCLE_MODE);
    a = view_key_action('1', 0);
    CHECK(a.kind == VIEW_ACT_CLIP && a.arg == 0);
    a = view_key_action('9', 0);
    CHECK(a.kind == VIEW_ACT_CLIP && a.arg == 8);
    a = view_key_action(VIEW_KEY_TAB, VIEW_MOD_SHIFT);
    CHECK(a.kind == VIEW_ACT_CLIP_STEP && a.arg == -1);
    /* N and P are normals and bind pose now, not clip changes. */
    CHECK(view_key_action('N', 0).kind == VIEW_ACT_NORMALS);
    CHECK(view_key_action('P', 0).kind == VIEW_ACT_BIND_POSE);
    CHECK(view_key_action('B', 0).kind == VIEW_ACT_BONES);
    CHECK(view_key_action('J', 0).kind == VIEW_ACT_JOINT_NAMES);
    CHECK(view_key_action('W', 0).kind == VIEW_ACT_WIREFRAME);
    CHECK(view_key_action('G', 0).kind == VIEW_ACT_GRID);
    CHECK(view_key_action('K', 0).kind == VIEW_ACT_SKINNING);
    CHECK(view_key_action('F', 0).kind == VIEW_ACT_FRAME_MODEL);
    CHECK(view_key_action('R', 0).kind == VIEW_ACT_RESET_CAMERA);
    CHECK(view_key_action(VIEW_KEY_F1, 0).kind == VIEW_ACT_HELP);
    CHECK(view_key_action('H', 0).kind == VIEW_ACT_HELP);
    CHECK(view_key_action(VIEW_KEY_ESCAPE, 0).kind == VIEW_ACT_QUIT);
    CHECK(view_key_action('Q', 0).kind == VIEW_ACT_NONE);
    CHECK(view_key_action('B', VIEW_MOD_CTRL).kind == VIEW_ACT_NONE);

    int key;
    unsigned mods;
    CHECK(view_key_parse("Shift+Right", &key, &mods) && key == VIEW_KEY_RIGHT &&
          mods == VIEW_MOD_SHIFT);
    CHECK(view_key_parse("space", &key, &mods) && key == ' ' && mods == 0);
    CHECK(view_key_parse("b", &key, &mods) && key == 'B');
    CHECK(view_key_parse("3", &key, &mods) && key == '3');
    CHECK(view_key_parse("[", &key, &mods) && key == '[');
    CHECK(view_key_parse("KP+", &key, &mods) && key == VIEW_KEY_KP_PLUS);
    CHECK(view_key_parse("ctrl+shift+tab", &key, &mods) && key == VIEW_KEY_TAB &&
          mods == (VIEW_MOD_CTRL | VIEW_MOD_SHIFT));
    CHECK(view_key_parse("F1", &key, &mods) && key == VIEW_KEY_F1);
    CHECK(!view_key_parse("Hyper+A", &key, &mods));
    CHECK(!view_key_parse("Nope", &key, &mods));
    CHECK(!view_key_parse("+", &key, &mods));
    CHECK(!view_key_parse("Shift+", &key, &mods));

    /* The help names every bound key. */
    size_t n;
    const view_help_row *rows = view_help_rows(&n);
    const char *must[] = {"Space", "Shift+Right", "[ / ]", "L", "1 .. 9", "Tab", "B", "J",
                          "W", "N", "P", "G", "K", "F", "R", "F1", "Esc", "wheel", "timeline",
                          "drop", "Backspace", "Home", "right or middle drag", "left drag"};
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) {
        bool found = false;
        for (size_t r = 0; r < n && !found; r++)
            found = strstr(rows[r].input, must[i]) || strstr(rows[r].effect, must[i]);
        CHECKF(found, "help does not mention %s", must[i]);
    }
}

static void check_timeline(void)
{
    view_timeline t;
    view_timeline_layout(&t, 800, 600);
    CHECK(t.x0 > 0.0f && t.x1 < 800.0f && t.y1 <= 600.0f && t.hit_y0 < t.y0 && t.y0 < t.y1);
    /* Symmetric: the middle of the window is the middle of the clip. */
    CHECK_NEAR(view_timeline_time_at(&t, 400.0f, 2.0f), 1.0, 1e-5);
    CHECK_NEAR(view_timeline_time_at(&t, t.x0, 2.0f), 0.0, 0);
    CHECK_NEAR(view_timeline_time_at(&t, t.x1, 2.0f), 2.0, 0);
    CHECK_NEAR(view_timeline_time_at(&t, -50.0f, 2.0f), 0.0, 0); /* clamped */
    CHECK_NEAR(view_timeline_time_at(&t, 5000.0f, 2.0f), 2.0, 0);
    CHECK_NEAR(view_timeline_time_at(&t, 400.0f, 0.0f), 0.0, 0);
    CHECK_NEAR(view_timeline_time_at(&t, NAN, 2.0f), 0.0, 0);
    CHECK_NEAR(view_timeline_x_of(&t, 1.0f, 2.0f), 400.0, 1e-4);
    CHECK_NEAR(view_timeline_x_of(&t, 0.5f, 2.0f),
               t.x0 + 0.25 * (t.x1 - t.x0), 1e-4);
    /* The bottom 2% of the window (where scripts click at y 0.98) is on the timeline; the
     * middle of the window is not. */
    CHECK(view_timeline_hit(&t, 400.0f, 0.98f * 600.0f));
    CHECK(view_timeline_hit(&t, 400.0f, 599.0f));
    CHECK(!view_timeline_hit(&t, 400.0f, 300.0f));
    CHECK(!view_timeline_hit(&t, 400.0f, t.hit_y0 - 1.0f));
    /* Tiny windows still get a usable bar. */
    view_timeline_layout(&t, 16, 16);
    CHECK(t.x1 > t.x0 && t.y1 > t.y0 && t.y1 <= 16.0f);
}

static void check_stats(void)
{
    double ms[] = {5.0, 1.0, 3.0, 2.0, 4.0, 100.0, 2.5, 3.5, 1.5, 4.5};
    view_frame_stats st;
    CHECK(view_frame_stats_compute(ms, 10, &st));
    CHECK_NEAR(st.min, 1.0, 0);
    CHECK_NEAR(st.max, 100.0, 0);
    CHECK_NEAR(st.median, 3.25, 1e-12);
    CHECK_NEAR(st.mean, 12.7, 1e-12);
    CHECK_NEAR(st.p95, 100.0, 0); /* nearest rank: the 10th of 10 */
    double one = 7.0;
    CHECK(view_frame_stats_compute(&one, 1, &st) && st.median == 7.0 && st.p95 == 7.0);
    CHECK(!view_frame_stats_compute(ms, 0, &st));
}

static void check_script(void)
{
    const char *text = "# a comment\n"
                       "key Right\n"
                       "state\n"
                       "at 0.5 key Shift+Right   # trailing comment\n"
                       "wait 0.25\n"
                       "click 0.5 0.98\n"
                       "drag 0.1 0.2 0.3 0.4 right 4\n"
                       "wheel -2\n"
                       "drop a.xsf b.xmf\n"
                       "screenshot out.png\n"
                       "\n"
                       "quit\n";
    view_script s;
    char err[512];
    CHECKF(view_script_parse(text, "t", &s, err, sizeof err), "%s", err);
    CHECK(s.count == 9);
    if (s.count == 9) {
        CHECK(s.cmds[0].op == VIEW_SCRIPT_KEY && s.cmds[0].key == VIEW_KEY_RIGHT &&
              s.cmds[0].at == 0.0 && s.cmds[0].line == 2);
        CHECK(s.cmds[1].op == VIEW_SCRIPT_STATE);
        CHECK(s.cmds[2].op == VIEW_SCRIPT_KEY && s.cmds[2].mods == VIEW_MOD_SHIFT &&
              s.cmds[2].at == 0.5);
        CHECK(s.cmds[3].op == VIEW_SCRIPT_CLICK && s.cmds[3].at == 0.75 &&
              s.cmds[3].x0 == 0.5f && s.cmds[3].y0 == 0.98f &&
              s.cmds[3].button == VIEW_BUTTON_LEFT);
        CHECK(s.cmds[4].op == VIEW_SCRIPT_DRAG && s.cmds[4].button == VIEW_BUTTON_RIGHT &&
              s.cmds[4].steps == 4 && s.cmds[4].x1 == 0.3f && s.cmds[4].y1 == 0.4f);
        CHECK(s.cmds[5].op == VIEW_SCRIPT_WHEEL && s.cmds[5].amount == -2.0f);
        CHECK(s.cmds[6].op == VIEW_SCRIPT_DROP && s.cmds[6].path_count == 2 &&
              strcmp(s.cmds[6].text, "a.xsf\nb.xmf") == 0);
        CHECK(s.cmds[7].op == VIEW_SCRIPT_SCREENSHOT && strcmp(s.cmds[7].text, "out.png") == 0);
        CHECK(s.cmds[8].op == VIEW_SCRIPT_QUIT);
    }
    view_script_free(&s);

    /* Errors name the line; nothing is left allocated. */
    const char *bad[] = {"state\nkey Nope\n",   "at 1 state\nat 0.5 state\n",
                         "click 0.5\n",         "click 1.5 0.5\n",
                         "wait -1\n",           "fly 1 2\n",
                         "drag 0 0 1 1 up\n",   "screenshot\n",
                         "at nan state\n",      "drop\n",
                         "key Right Left\n",    "drag 0 0 1 1 left 0\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECKF(!view_script_parse(bad[i], "bad", &s, err, sizeof err), "accepted: %s", bad[i]);
        CHECKF(strncmp(err, "bad:", 4) == 0, "message '%s'", err);
        CHECK(s.cmds == NULL && s.count == 0);
    }
    CHECK(!view_script_parse("state\nkey Nope\n", "bad", &s, err, sizeof err) &&
          strncmp(err, "bad:2:", 6) == 0);
    CHECK(!view_script_load("/nonexistent/script.txt", &s, err, sizeof err));
}

/* Hostile scripts: bytes flipped, lines cut short, at every place; the parser accepts or
 * rejects each but never reads or writes out of bounds (the ASan build checks) or leaks. */
static void check_script_mutations(void)
{
    const char *base = "at 0.25 key Shift+Right\nclick 0.5 0.98 right\n"
                       "drag 0 0 1 1 middle 3\nwait 1e-3\nwheel -1.5\ndrop a b c\n"
                       "screenshot x.png\nstate\nquit\n";
    size_t len = strlen(base);
    char text[256];
    const char flips[] = {'\0', '\n', ' ', '#', '+', '9', '-', 'x', '.', 'e'};
    uint32_t rng = 12345u;
    size_t accepted = 0, tried = 0;
    for (size_t at = 0; at < len; at++)
        for (size_t f = 0; f < sizeof flips; f++) {
            memcpy(text, base, len + 1);
            text[at] = flips[f];
            rng = rng * 1664525u + 1013904223u;
            if (rng >> 31)
                text[(rng >> 8) % len] = (char)(rng >> 16); /* a second, random byte */
            view_script s;
            char err[256];
            tried++;
            if (view_script_parse(text, "m", &s, err, sizeof err)) {
                accepted++;
                for (size_t i = 0; i < s.count; i++)
                    CHECK(s.cmds[i].at >= 0.0 && (i == 0 || s.cmds[i].at >= s.cmds[i - 1].at));
            } else {
                CHECK(strncmp(err, "m:", 2) == 0);
            }
            view_script_free(&s);
        }
    fprintf(stderr, "script mutations: %zu of %zu accepted\n", accepted, tried);
    CHECK(accepted > 0 && accepted < tried);
}

int main(void)
{
    check_keys();
    check_timeline();
    check_stats();
    check_script();
    check_script_mutations();
    return test_finish("input");
}
