/* ossa bench's table and JSON (bench_report.h). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "bench_report.h"
#include "cli.h"

#ifndef OSSA_BUILD_TYPE
#define OSSA_BUILD_TYPE "unknown"
#endif

static const char *const store_names[] = {"auto", "cached", "stream"};

static json_t *timing_json(bench_timing t)
{
    return json_pack("{s:o, s:o, s:o, s:o}", "median", ossa_cli_json_num(t.median), "min", ossa_cli_json_num(t.min), "max",
                     ossa_cli_json_num(t.max), "cpu_median", ossa_cli_json_num(t.cpu_median));
}

static json_t *load_json(const double load[3])
{
    return load[0] < 0 ? json_null() : json_pack("[o, o, o]", ossa_cli_json_num(load[0]), ossa_cli_json_num(load[1]),
                                                 ossa_cli_json_num(load[2]));
}

static const skin_result *best_single(const bench_report *r)
{
    const skin_result *best = NULL;
    for (size_t i = 0; i < r->skin_count; i++)
        if (r->skin[i].threads == 1 && (!best || r->skin[i].vps > best->vps))
            best = &r->skin[i];
    return best;
}

/* Why the choice is what it is, in one sentence. */
static const char *choice_why(const bench_report *r, char *buf, size_t size)
{
    const choice_result *c = &r->choice;
    int large = c->job_vertices >= c->choice.large_vertices;
    const ossa_skin_choice_size *cs = &c->choice.size[large];
    int n = c->choice.kernel_forced
                ? snprintf(buf, size, "%s: forced (--kernel)", ossa_skin_kernel_name(cs->kernel))
                : snprintf(buf, size, "%s: the fastest on the calibration's %u-vertex mesh with "
                                      "%s stores (%.0f Mv/s)",
                           ossa_skin_kernel_name(cs->kernel), c->choice.vertices,
                           store_names[cs->store],
                           (cs->store == OSSA_SKIN_STORE_STREAM ? c->choice.stream_rates
                                                                : c->choice.cached_rates)[cs->kernel] *
                               1e-6);
    if (n < 0 || (size_t)n >= size)
        return buf;
    if (c->choice.store_forced) {
        snprintf(buf + n, size - (size_t)n, "; %s: forced (--store)", store_names[cs->store]);
        return buf;
    }
    int m = snprintf(buf + n, size - (size_t)n, "; %s: a job of %u vertices is %s %u (where 72 "
                     "bytes a vertex outgrow %.0f KB)",
                     store_names[cs->store], c->job_vertices, large ? "at or above" : "below",
                     c->choice.large_vertices, (double)c->choice.large_vertices * 72.0 / 1024.0);
    if (m < 0 || (size_t)m >= size - (size_t)n)
        return buf;
    n += m;
    if (!large)
        snprintf(buf + n, size - (size_t)n, ", so the faster store on the mesh in cache");
    else if (c->choice.large_cached_rate > 0.0 && c->choice.large_stream_rate > 0.0)
        snprintf(buf + n, size - (size_t)n, ", so the faster store on the calibration's "
                 "%u-vertex mesh (cached %.0f, stream %.0f Mv/s)", c->choice.large_mesh_vertices,
                 c->choice.large_cached_rate * 1e-6, c->choice.large_stream_rate * 1e-6);
    else
        snprintf(buf + n, size - (size_t)n, ", so streaming (not measured out of cache)");
    return buf;
}

static json_t *choice_json(const bench_report *r)
{
    const choice_result *c = &r->choice;
    static const char *const class_names[OSSA_SKIN_SIZE_COUNT] = {"small", "large"};
    json_t *sizes = json_array(), *forced = json_array();
    json_t *cached = json_object(), *stream = json_object();
    for (int k = OSSA_SKIN_KERNEL_SCALAR; k < OSSA_SKIN_KERNEL_COUNT; k++) {
        const char *name = ossa_skin_kernel_name((ossa_skin_kernel)k);
        if (c->choice.cached_rates[k] > 0.0)
            json_object_set_new(cached, name, ossa_cli_json_num(c->choice.cached_rates[k]));
        if (c->choice.stream_rates[k] > 0.0)
            json_object_set_new(stream, name, ossa_cli_json_num(c->choice.stream_rates[k]));
    }
    for (int i = 0; i < OSSA_SKIN_SIZE_COUNT; i++)
        json_array_append_new(sizes, json_pack("{s:s, s:s, s:s}", "class", class_names[i],
                                               "kernel",
                                               ossa_skin_kernel_name(c->choice.size[i].kernel),
                                               "store", store_names[c->choice.size[i].store]));
    for (size_t i = 0; i < c->forced_count; i++)
        json_array_append_new(forced, json_pack(
            "{s:s, s:s, s:o, s:o}", "kernel", ossa_skin_kernel_name(c->forced[i].kernel), "store",
            store_names[c->forced[i].store], "vertices_per_second",
            ossa_cli_json_num(c->forced[i].vps), "seconds", timing_json(c->forced[i].t)));
    char why[512];
    json_t *large_mesh = json_null();
    if (c->choice.large_mesh_vertices)
        large_mesh = json_pack(
            "{s:i, s:i, s:o, s:o}", "vertices", (json_int_t)c->choice.large_mesh_vertices,
            "rounds", (json_int_t)c->choice.large_rounds, "cached_vertices_per_second",
            c->choice.large_cached_rate > 0.0 ? ossa_cli_json_num(c->choice.large_cached_rate)
                                              : json_null(),
            "stream_vertices_per_second",
            c->choice.large_stream_rate > 0.0 ? ossa_cli_json_num(c->choice.large_stream_rate)
                                              : json_null());
    return json_pack(
        "{s:{s:o, s:i, s:i, s:i, s:b, s:b, s:o, s:o, s:o, s:o}, s:i, s:s, s:s, s:s, s:s, s:o,"
        " s:o, s:o, s:o, s:{s:s, s:s, s:o}, s:o}",
        "calibration", "seconds", ossa_cli_json_num(c->choice.seconds), "mesh_vertices",
        (json_int_t)c->choice.vertices, "rounds", (json_int_t)c->choice.rounds, "large_vertices",
        (json_int_t)c->choice.large_vertices, "kernel_forced", c->choice.kernel_forced,
        "store_forced", c->choice.store_forced, "cached_vertices_per_second", cached,
        "stream_vertices_per_second", stream, "sizes", sizes, "large_store_mesh", large_mesh,
        "job_vertices", (json_int_t)c->job_vertices,
        "class", c->job_vertices >= c->choice.large_vertices ? "large" : "small",
        "kernel", ossa_skin_kernel_name(c->chosen.kernel), "store", store_names[c->chosen.store],
        "why", choice_why(r, why, sizeof why), "vertices_per_second", ossa_cli_json_num(c->vps),
        "seconds", timing_json(c->t), "max_error_vs_scalar", ossa_cli_json_num(c->max_err),
        "vs_fastest_forced", ossa_cli_json_num(c->vs_fastest),
        "fastest_forced", "kernel", ossa_skin_kernel_name(c->forced[c->fastest].kernel), "store",
        store_names[c->forced[c->fastest].store], "vertices_per_second",
        ossa_cli_json_num(c->forced[c->fastest].vps), "forced", forced);
}

void bench_print_json(FILE *out, const bench_opts *o, const bench_report *r)
{
    json_t *features = json_array(), *kernels = json_array(), *runs = json_array();
    for (size_t i = 0; i < r->feature_count; i++)
        json_array_append_new(features, json_string(r->features[i]));
    for (size_t i = 0; i < r->kernel_count; i++)
        json_array_append_new(kernels, json_string(ossa_skin_kernel_name(r->kernels[i])));
    for (size_t k = 0; k < r->thread_count_n; k++)
        json_array_append_new(runs, json_pack(
            "{s:i, s:o, s:o, s:o}", "threads", (json_int_t)r->thread_counts[k], "triad_gbps",
            ossa_cli_json_num(r->triad_gbps[k]), "stream_convention_gbps", ossa_cli_json_num(r->triad_gbps[k] * 12.0 / 16.0),
            "seconds", timing_json(r->triad[k])));
    json_t *skinning = json_array();
    for (size_t i = 0; i < r->skin_count; i++) {
        const skin_result *sr = &r->skin[i];
        json_t *e = json_pack(
            "{s:s, s:i, s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:o}", "kernel",
            ossa_skin_kernel_name(sr->kernel), "threads", (json_int_t)sr->threads,
            "vertices_per_second", ossa_cli_json_num(sr->vps), "ns_per_vertex", ossa_cli_json_num(1e9 / sr->vps), "seconds",
            timing_json(sr->t), "bytes_per_vertex", ossa_cli_json_num(sr->bytes_per_vertex),
            "streaming_stores", sr->streaming != 0, "triad_gbps", ossa_cli_json_num(sr->triad_gbps),
            "memory_bound_vertices_per_second", ossa_cli_json_num(sr->limit_vps), "fraction_of_memory_bound",
            ossa_cli_json_num(sr->fraction));
        if (e && r->has_cal3d)
            json_object_set_new(e, "ratio_vs_cal3d", ossa_cli_json_num(sr->ratio));
        if (e)
            json_object_set_new(e, "max_error_vs_scalar", ossa_cli_json_num(sr->max_err));
        json_array_append_new(skinning, e);
    }
    json_t *pose = json_array();
    for (size_t i = 0; i < POSE_SIZES; i++) {
        const pose_result *p = &r->pose[i];
        json_t *e = json_pack("{s:i, s:o, s:o, s:o, s:o}", "bones", (json_int_t)p->bones,
                              "ossa_seconds", ossa_cli_json_num(p->ossa.median), "ossa_mixer_seconds",
                              ossa_cli_json_num(p->mixer.median), "ossa", timing_json(p->ossa), "ossa_mixer",
                              timing_json(p->mixer));
        if (e && p->has_cal3d) {
            json_object_set_new(e, "cal3d_seconds", ossa_cli_json_num(p->cal3d.median));
            json_object_set_new(e, "cal3d", timing_json(p->cal3d));
            json_object_set_new(e, "speedup_vs_cal3d", ossa_cli_json_num(p->speedup));
            json_object_set_new(e, "mixer_speedup_vs_cal3d", ossa_cli_json_num(p->mixer_speedup));
        }
        json_array_append_new(pose, e);
    }
    json_t *cal3d = json_pack("{s:b}", "available", r->has_cal3d != 0);
    if (cal3d && r->has_cal3d) {
        const skin_result *best = best_single(r);
        json_object_set_new(cal3d, "vertices_per_second", ossa_cli_json_num(r->cal3d_vps));
        json_object_set_new(cal3d, "seconds", timing_json(r->cal3d_skin));
        json_object_set_new(cal3d, "best_kernel",
                            json_string(best ? ossa_skin_kernel_name(best->kernel) : ""));
        json_object_set_new(cal3d, "best_kernel_ratio", ossa_cli_json_num(best ? best->ratio : 0.0));
        json_object_set_new(cal3d, "max_error_vs_ossa", ossa_cli_json_num(r->cal3d_err));
    } else if (cal3d) {
        json_object_set_new(cal3d, "note", ossa_cli_json_text(r->cal3d_note[0] ? r->cal3d_note
                                                       : "libcal3d was not found at build time"));
    }
    json_t *doc = json_pack(
        "{s:i, s:s, s:{s:o, s:I, s:o, s:s, s:s},"
        " s:{s:i, s:i, s:i, s:i, s:i, s:o, s:s, s:i, s:f, s:I},"
        " s:{s:i, s:i, s:i, s:i, s:I, s:i, s:s, s:o}, s:o,"
        " s:{s:I, s:i, s:o, s:o}, s:o, s:o, s:o}",
        "ossa_bench", 1, "date", r->date,
        "machine", "cpu", ossa_cli_json_text(r->cpu), "cores", (json_int_t)r->cores,
        "features", features,
        "build_type", OSSA_BUILD_TYPE, "compiler", __VERSION__,
        "options", "vertices", (json_int_t)o->vertices, "influences", (json_int_t)o->influences,
        "bones", (json_int_t)o->bones, "threads", (json_int_t)o->threads, "runs",
        (json_int_t)o->runs, "model",
        o->model_count ? ossa_cli_json_text(r->source) : json_null(), "store",
        store_names[o->store], "warmup_runs", (json_int_t)BENCH_WARMUP_RUNS, "min_run_seconds",
        (double)BENCH_RUN_SECONDS, "seed", (json_int_t)BENCH_SEED,
        "mesh", "vertices", (json_int_t)r->vertices, "submeshes", (json_int_t)r->submeshes,
        "bones", (json_int_t)r->bone_count, "max_influences", (json_int_t)r->max_influences,
        "influences", (json_int_t)r->influences_total, "exact_submeshes",
        (json_int_t)r->exact_submeshes, "skinning",
        !r->exact_submeshes ? "blend" : r->exact_submeshes == r->submeshes ? "exact" : "mixed",
        "stream_bytes", ossa_cli_json_num(r->stream_bytes),
        "kernels", kernels,
        "bandwidth", "array_bytes", (json_int_t)(3 * r->triad_n * sizeof(float)),
        "bytes_per_element", 16, "triad_gbps", ossa_cli_json_num(r->triad_gbps[0]), "runs", runs,
        "skinning", skinning, "pose", pose, "cal3d", cal3d);
    char warning[512];
    json_t *load = json_pack("{s:o, s:o, s:i, s:i, s:o}", "load_average_start",
                             load_json(r->load.start), "load_average_end",
                             load_json(r->load.end), "rounds", (json_int_t)r->load.rounds,
                             "contended_rounds", (json_int_t)r->load.contended,
                             "min_cpu_share", ossa_cli_json_num(r->load.min_cpu_share));
    json_object_set_new(doc, "choice", choice_json(r));
    json_object_set_new(doc, "cpu_speeds",
                        bench_cpus_json(&r->cpus, r->thread_count_n > 1 ? r->thread_counts[1] : 1));
    if (doc && load) {
        json_object_set_new(doc, "load", load);
        json_object_set_new(doc, "warnings",
                            r->load.contended ? json_pack("[o]", ossa_cli_json_text(
                                bench_load_warning(&r->load, warning, sizeof warning)))
                                              : json_array());
    } else {
        json_decref(load);
    }
    ossa_cli_json_print(out, doc, true);
}

void bench_print_table(FILE *out, const bench_opts *o, const bench_report *r)
{
    fprintf(out, "ossa bench  %s  %s (%ld cores)  build %s\n", r->date, r->cpu, r->cores,
            OSSA_BUILD_TYPE);
    fprintf(out, "mesh: %s, %u vertices in %u submeshes, %u bones, up to %u influences; "
                 "median of %u runs\n\n",
            o->model_count ? r->source : "synthetic", r->vertices, r->submeshes, r->bone_count,
            r->max_influences, o->runs);
    bench_print_load(out, &r->load, "\n");
    bench_cpus_print(out, &r->cpus, r->thread_count_n > 1 ? r->thread_counts[1] : 1, "\n");
    fputc('\n', out);
    if (r->exact_submeshes)
        fprintf(out, "skinning: exact per-influence form (C3S/SKM offsets that disagree) in %u of "
                     "%u submeshes, linear blend in the rest\n\n",
                r->exact_submeshes, r->submeshes);
    for (size_t k = 0; k < r->thread_count_n; k++)
        fprintf(out, "STREAM triad, %u thread%s, %.1f MB arrays: %.2f GB/s (16 B/element incl. "
                     "write-allocate; %.2f GB/s in STREAM's 12 B convention)\n",
                r->thread_counts[k], r->thread_counts[k] > 1 ? "s" : "",
                3.0 * (double)r->triad_n * sizeof(float) / 1e6, r->triad_gbps[k],
                r->triad_gbps[k] * 0.75);
    fprintf(out, "\n%-8s %7s %12s %8s %9s %8s %12s %8s %10s %9s\n", "kernel", "threads",
            "Mvertices/s", "ns/vert", "B/vertex", "stores", "bound Mv/s", "of bound",
            r->has_cal3d ? "x libcal3d" : "", "max err");
    for (size_t i = 0; i < r->skin_count; i++) {
        const skin_result *s = &r->skin[i];
        char ratio[32] = "";
        if (r->has_cal3d)
            snprintf(ratio, sizeof ratio, "%.2f", s->ratio);
        fprintf(out, "%-8s %7u %12.2f %8.2f %9.1f %8s %12.2f %7.0f%% %10s %9.2g\n",
                ossa_skin_kernel_name(s->kernel), s->threads, s->vps * 1e-6, 1e9 / s->vps,
                s->bytes_per_vertex, s->streaming ? "stream" : "cached", s->limit_vps * 1e-6,
                100.0 * s->fraction, ratio, s->max_err);
    }
    if (r->has_cal3d)
        fprintf(out, "%-8s %7u %12.2f %8.2f   (CalPhysique::calculateVerticesAndNormals; max "
                     "difference from Ossa %.2g)\n",
                "libcal3d", 1u, r->cal3d_vps * 1e-6, 1e9 / r->cal3d_vps, r->cal3d_err);
    else
        fprintf(out, "libcal3d: not measured (%s)\n",
                r->cal3d_note[0] ? r->cal3d_note : "not found at build time");
    const choice_result *c = &r->choice;
    char why[512];
    fprintf(out, "\nchosen by measurement (calibration %.2f ms, %u rounds): %s + %s\n  %s\n",
            c->choice.seconds * 1e3, c->choice.rounds, ossa_skin_kernel_name(c->chosen.kernel),
            store_names[c->chosen.store], choice_why(r, why, sizeof why));
    fprintf(out, "%-8s %8s %12s %12s\n", "kernel", "stores", "Mvertices/s", "1 thread");
    for (size_t i = 0; i < c->forced_count; i++)
        fprintf(out, "%-8s %8s %12.2f %12s\n", ossa_skin_kernel_name(c->forced[i].kernel),
                store_names[c->forced[i].store], c->forced[i].vps * 1e-6,
                i == c->fastest ? "fastest" : "");
    fprintf(out, "%-8s %8s %12.2f %11.2fx the fastest forced (median of per-round ratios)\n",
            "chosen", store_names[c->chosen.store], c->vps * 1e-6, c->vs_fastest);
    fprintf(out, "\npose (sample + local_to_model + palette), microseconds per evaluation:\n");
    fprintf(out, "%6s %10s %12s %10s %10s\n", "bones", "ossa", "ossa mixer",
            r->pose[0].has_cal3d ? "libcal3d" : "", r->pose[0].has_cal3d ? "speedup" : "");
    for (size_t i = 0; i < POSE_SIZES; i++) {
        const pose_result *p = &r->pose[i];
        fprintf(out, "%6u %10.2f %12.2f", p->bones, p->ossa.median * 1e6, p->mixer.median * 1e6);
        if (p->has_cal3d)
            fprintf(out, " %10.2f %9.1fx", p->cal3d.median * 1e6, p->speedup);
        fputc('\n', out);
    }
}
