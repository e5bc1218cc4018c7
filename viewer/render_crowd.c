/* ossa-view --crowd on GL 3.3 core (render_crowd.h). */
#include "render_crowd.h"

#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { PALETTE_BINDING = 0, PALETTE_UNIT = 1 };

static const float wire_rgb[3] = {0.05f, 0.05f, 0.06f};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void view_crowd_renderer_free(view_crowd_renderer *cr)
{
    GLuint programs[] = {cr->cpu.id, cr->instanced.id, cr->loop.id};
    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++)
        if (programs[i])
            glDeleteProgram(programs[i]);
    GLuint buffers[] = {cr->position_buffer, cr->normal_buffer, cr->palette_buffer};
    glDeleteBuffers(3, buffers);
    if (cr->palette_texture)
        glDeleteTextures(1, &cr->palette_texture);
    if (cr->vao)
        glDeleteVertexArrays(1, &cr->vao);
    free(cr->packed);
    free(cr->cpu_parts);
    memset(cr, 0, sizeof *cr);
}

/* The GPU variants: instanced when the palettes fit a texture buffer, else (or when it does
 * not build) the loop through the palette block; neither without the single model's GPU path. */
static void gpu_programs(view_crowd_renderer *cr, const view_renderer *r, const view_crowd *c)
{
    if (!r->mesh_gpu.id)
        return;
    char defines[160], err[1200];
    size_t rows = 3 * (size_t)r->bone_count;
    snprintf(defines, sizeof defines,
             "#define OSSA_GPU_SKINNING\n#define OSSA_PALETTE_ROWS %zu\n#define OSSA_CROWD\n",
             rows);
    if (view_mesh_program_build(&cr->loop, defines, "mesh (crowd, gpu loop)", err, sizeof err)) {
        cr->loop_offset = glGetUniformLocation(cr->loop.id, "u_offset");
        GLuint block = glGetUniformBlockIndex(cr->loop.id, "Palette");
        if (block != GL_INVALID_INDEX)
            glUniformBlockBinding(cr->loop.id, block, PALETTE_BINDING);
    } else {
        fprintf(stderr, "ossa-view: note: crowd GPU loop is off: %s\n", err);
    }
    /* OSSA_VIEW_NO_INSTANCING=1 takes the loop on purpose (tests compare the two). */
    const char *no_instancing = getenv("OSSA_VIEW_NO_INSTANCING");
    if (no_instancing && strcmp(no_instancing, "1") == 0)
        return;
    GLint max_texels = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_texels);
    size_t texels = (size_t)c->count * (1 + rows);
    if (texels > (size_t)max_texels) {
        fprintf(stderr,
                "ossa-view: note: %zu palette texels pass GL_MAX_TEXTURE_BUFFER_SIZE (%d): the "
                "crowd is drawn a character at a time\n", texels, max_texels);
        return;
    }
    snprintf(defines, sizeof defines,
             "#define OSSA_GPU_SKINNING\n#define OSSA_PALETTE_ROWS %zu\n"
             "#define OSSA_CROWD_INSTANCED\n", rows);
    if (!view_mesh_program_build(&cr->instanced, defines, "mesh (crowd, instanced)", err,
                                 sizeof err)) {
        fprintf(stderr, "ossa-view: note: instanced crowd drawing is off: %s\n", err);
        return;
    }
    cr->palettes = glGetUniformLocation(cr->instanced.id, "u_palettes");
    cr->stride = glGetUniformLocation(cr->instanced.id, "u_instance_stride");
    glUseProgram(cr->instanced.id);
    glUniform1i(cr->palettes, PALETTE_UNIT);
    glUniform1i(cr->stride, (GLint)(1 + rows));
    glUseProgram(0);
    cr->packed_floats = 4 * texels;
    cr->packed = malloc(cr->packed_floats * sizeof *cr->packed);
    if (!cr->packed) {
        glDeleteProgram(cr->instanced.id);
        memset(&cr->instanced, 0, sizeof cr->instanced);
        return;
    }
    glGenBuffers(1, &cr->palette_buffer);
    glBindBuffer(GL_TEXTURE_BUFFER, cr->palette_buffer);
    glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)(cr->packed_floats * sizeof(float)), NULL,
                 GL_STREAM_DRAW);
    glGenTextures(1, &cr->palette_texture);
    glBindTexture(GL_TEXTURE_BUFFER, cr->palette_texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, cr->palette_buffer);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    cr->use_instancing = true;
}

bool view_crowd_renderer_init(view_crowd_renderer *cr, const view_renderer *r,
                              const view_scene *s, const view_crowd *c, char *err,
                              size_t err_size)
{
    memset(cr, 0, sizeof *cr);
    if (!view_mesh_program_build(&cr->cpu, "#define OSSA_CROWD\n", "mesh (crowd)", err,
                                 err_size))
        return false;
    cr->cpu_offset = glGetUniformLocation(cr->cpu.id, "u_offset");
    cr->cpu_parts = calloc(s->part_count ? s->part_count : 1, sizeof *cr->cpu_parts);
    if (!cr->cpu_parts) {
        snprintf(err, err_size, "out of memory");
        view_crowd_renderer_free(cr);
        return false;
    }
    /* Vertex tracks may play on any character at any time: such parts are CPU-written. */
    for (uint32_t i = 0; i < r->draw_count; i++) {
        const view_draw *d = &r->draws[i];
        bool cpu = d->cpu_only || s->parts[d->part].frame_tracked;
        cr->cpu_parts[d->part] = cpu;
        cr->cpu_part_count += cpu;
    }
    size_t bytes = 3 * (c->vertex_count ? c->vertex_count : 1) * (size_t)c->count * sizeof(float);
    glGenBuffers(1, &cr->position_buffer);
    glGenBuffers(1, &cr->normal_buffer);
    glBindBuffer(GL_ARRAY_BUFFER, cr->position_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, cr->normal_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_DRAW);
    glGenVertexArrays(1, &cr->vao);
    glBindVertexArray(cr->vao);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glBindBuffer(GL_ARRAY_BUFFER, r->uv_buffer);
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->index_buffer);
    glBindVertexArray(0);
    gpu_programs(cr, r, c);
    const char *cpu_name = view_renderer_skinning_name(r, &(view_display){0});
    if (cr->use_instancing || cr->loop.id)
        snprintf(cr->name, sizeof cr->name, "%s%s%s",
                 cr->use_instancing ? "gpu instanced" : "gpu, a draw per character",
                 cr->cpu_part_count ? " + " : "", cr->cpu_part_count ? cpu_name : "");
    else
        snprintf(cr->name, sizeof cr->name, "%s", cpu_name);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(err, err_size, "GL error 0x%x while creating the crowd's buffers", e);
        view_crowd_renderer_free(cr);
        return false;
    }
    return true;
}

double view_crowd_cpu_seconds(const view_crowd *c, const view_crowd_renderer *cr)
{
    return c->update_seconds + c->skin_seconds + (cr ? cr->pack_seconds : 0.0);
}

const char *view_crowd_skinning_name(const view_crowd_renderer *cr, const view_renderer *r,
                                     const view_display *d)
{
    return d->skinning == VIEW_SKIN_GPU ? cr->name : view_renderer_skinning_name(r, d);
}

static void begin_program(const view_mesh_program *p, const view_frame *f, bool flat)
{
    glUseProgram(p->id);
    glUniformMatrix4fv(p->view_proj, 1, GL_FALSE, f->view_proj);
    glUniform3fv(p->light_dir, 1, f->light_dir);
    glUniform1f(p->ambient, 0.3f);
    glUniform1i(p->flat, flat);
}

static void material(const view_mesh_program *p, const view_draw *d, bool flat)
{
    glUniform3fv(p->diffuse, 1, flat ? wire_rgb : d->diffuse);
    bool textured = !flat && d->texture;
    glUniform1i(p->textured, textured);
    if (textured) {
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, d->texture);
        glUniform1i(p->flip_v, d->flip_v);
    }
}

static const void *index_offset(const view_draw *d)
{
    return (const void *)(d->first_index * sizeof(uint32_t));
}

typedef enum crowd_pass { PASS_CPU, PASS_BIND, PASS_GPU } crowd_pass;

/* The draws of one pass for every character: gpu_parts, the draws not CPU-written in GPU mode,
 * else those that are (the bind pass draws all). */
static void draw_pass(const view_crowd_renderer *cr, const view_renderer *r,
                      const view_crowd *c, const view_frame *f, crowd_pass pass, bool gpu_parts,
                      bool flat)
{
    bool any = pass == PASS_BIND && r->draw_count;
    for (uint32_t k = 0; k < r->draw_count; k++)
        any |= cr->cpu_parts[r->draws[k].part] != gpu_parts;
    if (!any)
        return;
    if (pass == PASS_GPU && cr->use_instancing) {
        begin_program(&cr->instanced, f, flat);
        glActiveTexture(GL_TEXTURE0 + PALETTE_UNIT);
        glBindTexture(GL_TEXTURE_BUFFER, cr->palette_texture);
        glActiveTexture(GL_TEXTURE0);
        glBindVertexArray(r->gpu_vao);
        for (uint32_t k = 0; k < r->draw_count; k++) {
            const view_draw *d = &r->draws[k];
            if (cr->cpu_parts[d->part] == gpu_parts)
                continue;
            material(&cr->instanced, d, flat);
            glDrawElementsInstancedBaseVertex(GL_TRIANGLES, d->index_count, GL_UNSIGNED_INT,
                                              index_offset(d), (GLsizei)c->count,
                                              d->base_vertex);
        }
        glActiveTexture(GL_TEXTURE0 + PALETTE_UNIT);
        glBindTexture(GL_TEXTURE_BUFFER, 0);
        glActiveTexture(GL_TEXTURE0);
        return;
    }
    const view_mesh_program *p = pass == PASS_GPU ? &cr->loop : &cr->cpu;
    int offset = pass == PASS_GPU ? cr->loop_offset : cr->cpu_offset;
    begin_program(p, f, flat);
    glBindVertexArray(pass == PASS_GPU ? r->gpu_vao : pass == PASS_BIND ? r->bind_vao : cr->vao);
    size_t bones = c->model->bone_count;
    for (uint32_t i = 0; i < c->count; i++) {
        glUniform3fv(offset, 1, c->offsets + 3 * (size_t)i);
        if (pass == PASS_CPU) { /* this character's range of the crowd's buffers */
            size_t at = 3 * sizeof(float) * (size_t)i * c->vertex_count;
            glBindBuffer(GL_ARRAY_BUFFER, cr->position_buffer);
            glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, (const void *)at);
            glBindBuffer(GL_ARRAY_BUFFER, cr->normal_buffer);
            glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 0, (const void *)at);
        } else if (pass == PASS_GPU) {
            glBindBuffer(GL_UNIFORM_BUFFER, r->palette_buffer);
            glBufferSubData(GL_UNIFORM_BUFFER, 0, (GLsizeiptr)(12 * bones * sizeof(float)),
                            ossa_instance_palette(c->instances[i]));
            glBindBuffer(GL_UNIFORM_BUFFER, 0);
            glBindBufferBase(GL_UNIFORM_BUFFER, PALETTE_BINDING, r->palette_buffer);
        }
        for (uint32_t k = 0; k < r->draw_count; k++) {
            const view_draw *d = &r->draws[k];
            if (pass != PASS_BIND && cr->cpu_parts[d->part] == gpu_parts)
                continue;
            material(p, d, flat);
            glDrawElementsBaseVertex(GL_TRIANGLES, d->index_count, GL_UNSIGNED_INT,
                                     index_offset(d), d->base_vertex);
        }
    }
}

static void upload(const view_crowd_renderer *cr, const view_crowd *c)
{
    GLsizeiptr bytes = (GLsizeiptr)(3 * c->vertex_count * (size_t)c->count * sizeof(float));
    glBindBuffer(GL_ARRAY_BUFFER, cr->position_buffer);
    glBufferData(GL_ARRAY_BUFFER, bytes, NULL, GL_STREAM_DRAW); /* orphan: no stall */
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, c->positions);
    glBindBuffer(GL_ARRAY_BUFFER, cr->normal_buffer);
    glBufferData(GL_ARRAY_BUFFER, bytes, NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, c->normals);
}

void view_crowd_renderer_draw(view_crowd_renderer *cr, const view_renderer *r,
                              const view_scene *s, view_crowd *c, const view_frame *f)
{
    glViewport(0, 0, f->width, f->height);
    glClearColor(VIEW_BACKGROUND_RGB, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_CULL_FACE);
    const view_display *d = &f->display;
    bool bind = d->bind_pose;
    bool gpu = !bind && d->skinning == VIEW_SKIN_GPU && (cr->use_instancing || cr->loop.id);
    cr->pack_seconds = 0.0;
    cr->vertices_per_frame = 0;
    c->skin_seconds = 0.0;
    if (!bind && r->draw_count && c->vertex_count && (!gpu || cr->cpu_part_count)) {
        view_crowd_skin(c, gpu ? cr->cpu_parts : NULL);
        upload(cr, c);
        if (!gpu)
            cr->vertices_per_frame = c->skinned_vertices;
    }
    if (gpu) {
        for (uint32_t k = 0; k < r->draw_count; k++)
            cr->vertices_per_frame += (size_t)s->parts[r->draws[k].part].vertex_count * c->count;
        if (cr->use_instancing) {
            double t0 = now_seconds();
            view_crowd_pack(c, cr->packed);
            cr->pack_seconds = now_seconds() - t0;
            glBindBuffer(GL_TEXTURE_BUFFER, cr->palette_buffer);
            glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)(cr->packed_floats * sizeof(float)),
                         NULL, GL_STREAM_DRAW);
            glBufferSubData(GL_TEXTURE_BUFFER, 0,
                            (GLsizeiptr)(cr->packed_floats * sizeof(float)), cr->packed);
            glBindBuffer(GL_TEXTURE_BUFFER, 0);
        }
    }
    if (r->draw_count) {
        for (int wire = 0; wire <= (d->wireframe ? 1 : 0); wire++) {
            if (d->wireframe && !wire) { /* as render.c: edges on a surface pushed back */
                glEnable(GL_POLYGON_OFFSET_FILL);
                glPolygonOffset(1.0f, 1.0f);
            } else if (wire) {
                glDisable(GL_POLYGON_OFFSET_FILL);
                glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
            }
            if (bind) {
                draw_pass(cr, r, c, f, PASS_BIND, false, wire);
            } else if (gpu) {
                draw_pass(cr, r, c, f, PASS_GPU, true, wire);
                draw_pass(cr, r, c, f, PASS_CPU, false, wire);
            } else {
                draw_pass(cr, r, c, f, PASS_CPU, true, wire);
                draw_pass(cr, r, c, f, PASS_CPU, false, wire);
            }
            if (wire)
                glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
        }
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindVertexArray(0);
    glUseProgram(0);
}
