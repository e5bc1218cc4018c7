/* The table and JSON of `ossa bench --crowd` (see bench_crowd_report.h). */
#include "bench_crowd_report.h"
#include <math.h>
#include "cli.h"

/* ---- output ------------------------------------------------------------------------------ */

static json_t *figures_json(const crowd_figures *f)
{
    return json_pack("{s:i, s:{s:o, s:o, s:o, s:o, s:o}, s:o, s:o}", "threads",
                     (json_int_t)f->threads, "frame_seconds", "median", ossa_cli_json_num(f->median), "p95",
                     ossa_cli_json_num(f->p95), "min", ossa_cli_json_num(f->min), "max", ossa_cli_json_num(f->max), "cpu_median",
                     ossa_cli_json_num(f->cpu_median), "characters_per_second", ossa_cli_json_num(f->characters_per_second),
                     "vertices_per_second", ossa_cli_json_num(f->vertices_per_second));
}

static json_t *load_json(const double load[3])
{
    return load[0] < 0 ? json_null()
                       : json_pack("[o, o, o]", ossa_cli_json_num(load[0]), ossa_cli_json_num(load[1]), ossa_cli_json_num(load[2]));
}

void bench_crowd_print_json(FILE *out, const bench_crowd_opts *o, const ossa_model *m,
                       const crowd_report *rep)
{
    json_t *sizes = json_array();
    for (uint32_t i = 0; i < o->size_count; i++) {
        const crowd_result *r = &rep->results[i];
        json_t *e = json_pack("{s:i, s:b}", "characters", (json_int_t)r->n, "measured",
                              !r->skipped);
        if (!e)
            continue;
        if (r->skipped) {
            json_object_set_new(e, "note", ossa_cli_json_text(r->note));
            json_array_append_new(sizes, e);
            continue;
        }
        json_t *ossa = json_array();
        for (uint32_t k = 0; k < r->ossa_count; k++) {
            json_t *f = figures_json(&r->ossa[k]);
            if (f && r->has_cal3d)
                json_object_set_new(f, "ratio_vs_cal3d", ossa_cli_json_num(r->ratio_vs_cal3d[k]));
            json_array_append_new(ossa, f);
        }
        json_object_set_new(e, "frames_per_round", json_integer(r->frames));
        json_object_set_new(e, "vertices_per_frame", json_integer((json_int_t)r->vertices));
        json_object_set_new(e, "bytes_per_character", ossa_cli_json_num(r->bytes_per_character));
        json_object_set_new(e, "output_bytes_per_frame", ossa_cli_json_num(r->output_bytes));
        json_object_set_new(e, "store", json_string(r->streams ? "stream" : "cached"));
        json_object_set_new(e, "shared_bytes", ossa_cli_json_num(r->shared_bytes));
        json_object_set_new(e, "ossa", ossa);
        if (r->ossa_count == 2)
            json_object_set_new(e, "thread_speedup", ossa_cli_json_num(r->thread_speedup));
        json_object_set_new(e, "cal3d", r->has_cal3d ? figures_json(&r->cal3d) : json_null());
        json_array_append_new(sizes, e);
    }
    char warning[512];
    json_t *doc = json_pack(
        "{s:i, s:s, s:{s:o, s:i}, s:{s:o, s:I, s:i, s:i, s:i}, s:{s:i, s:i, s:i, s:o},"
        " s:o, s:o, s:{s:o, s:o, s:i, s:i, s:o}, s:o}",
        "ossa_bench_crowd", 1, "date", o->date, "machine", "cpu", ossa_cli_json_text(o->cpu),
        "cores", (json_int_t)o->cores, "model", "source", ossa_cli_json_text(o->source),
        "vertices_per_character", (json_int_t)rep->vertices, "parts", (json_int_t)rep->parts,
        "bones", (json_int_t)m->bone_count, "clips", (json_int_t)m->clip_count, "options",
        "threads", (json_int_t)o->threads, "frames", (json_int_t)o->frames, "runs",
        (json_int_t)o->runs, "dt", ossa_cli_json_num((double)CROWD_DT), "max_error_vs_cal3d",
        rep->max_error >= 0 ? ossa_cli_json_num(rep->max_error) : json_null(), "crowds", sizes, "load",
        "load_average_start", load_json(rep->load.start), "load_average_end",
        load_json(rep->load.end), "rounds", (json_int_t)rep->load.rounds, "contended_rounds",
        (json_int_t)rep->load.contended, "min_cpu_share", ossa_cli_json_num(rep->load.min_cpu_share),
        "warnings",
        rep->load.contended
            ? json_pack("[o]", ossa_cli_json_text(bench_load_warning(&rep->load, warning,
                                                               sizeof warning)))
            : json_array());
    json_object_set_new(doc, "kernel", json_string(ossa_skin_kernel_name(rep->kernel)));
    json_object_set_new(doc, "cpu_speeds", bench_cpus_json(&rep->cpus, o->threads));
    json_object_set_new(doc, "max_spring_error_vs_cal3d",
                        rep->max_spring_error >= 0 ? ossa_cli_json_num(rep->max_spring_error) : json_null());
    ossa_cli_json_print(out, doc, true);
}

void bench_crowd_print_table(FILE *out, const bench_crowd_opts *o, const ossa_model *m,
                        const crowd_report *rep)
{
    fprintf(out, "ossa bench --crowd  %s  %s (%ld cores)\n", o->date, o->cpu, o->cores);
    fprintf(out, "model: %s, %llu vertices in %u parts, %u bones, %u clips; frames of 1/60 s, "
                 "median over %u rounds; kernel %s\n",
            o->source, (unsigned long long)rep->vertices, rep->parts, m->bone_count,
            m->clip_count, o->runs, ossa_skin_kernel_name(rep->kernel));
    if (rep->max_error >= 0)
        fprintf(out, "largest difference from libcal3d's skinned mesh: %.2g x the model's size\n",
                rep->max_error);
    if (rep->max_spring_error >= 0)
        fprintf(out, "largest difference of its cloth (spring-owned vertices): %.2g x size\n",
                rep->max_spring_error);
    bench_print_load(out, &rep->load, "\n");
    bench_cpus_print(out, &rep->cpus, o->threads, "\n");
    fprintf(out, "\n%10s %7s %10s %10s %13s %12s %12s %10s\n", "characters", "threads",
            "frame ms", "p95 ms", "characters/s", "Mvertices/s", "libcal3d ms", "x libcal3d");
    for (uint32_t i = 0; i < o->size_count; i++) {
        const crowd_result *r = &rep->results[i];
        if (r->skipped) {
            fprintf(out, "%10u  not measured: %s\n", r->n, r->note);
            continue;
        }
        for (uint32_t k = 0; k < r->ossa_count; k++) {
            const crowd_figures *f = &r->ossa[k];
            char cal[16] = "", ratio[16] = "";
            if (r->has_cal3d) {
                snprintf(cal, sizeof cal, "%.3f", r->cal3d.median * 1e3);
                snprintf(ratio, sizeof ratio, "%.1f", r->ratio_vs_cal3d[k]);
            }
            fprintf(out, "%10u %7u %10.3f %10.3f %13.0f %12.1f %12s %10s\n", r->n, f->threads,
                    f->median * 1e3, f->p95 * 1e3, f->characters_per_second,
                    f->vertices_per_second * 1e-6, cal, ratio);
        }
        if (r->ossa_count == 2)
            fprintf(out, "%10s %7s %u threads run %.2fx one thread's frame rate\n", "", "",
                    r->ossa[1].threads, r->thread_speedup);
    }
}

