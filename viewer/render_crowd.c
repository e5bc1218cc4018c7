/* ossa-view --crowd on GL 3.3 core (render_crowd.h). */
#include "render_crowd.h"

#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { PALETTE_BINDING = 0, PALETTE_UNIT = 1, PLACES_UNIT = 2, UVS_UNIT = 3 };

static const float wire_rgb[3] = {0.05f, 0.05f, 0.06f};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void view_crowd_renderer_free(view_crowd_renderer *cr)
{
    GLuint programs[] = {cr->cpu.id, cr->instanced.id, cr->instanced_lite.id, cr->loop.id};
    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++)
        if (programs[i])
            glDeleteProgram(programs[i]);
    GLuint buffers[] = {cr->position_buffer, cr->normal_buffer, cr->palette_buffer,
                        cr->places_buffer, cr->cpu_part_uv_buffer};
    glDeleteBuffers(5, buffers);
    GLuint textures[] = {cr->palette_texture, cr->places_texture, cr->uv_texture,
                         cr->cpu_part_uv_texture};
    glDeleteTextures(4, textures);
    if (cr->vao)
        glDeleteVertexArrays(1, &cr->vao);
    free(cr->packed);
    free(cr->cpu_parts);
    free(cr->cpu_part_first);
    free(cr->cpu_part_stage);
    free(cr->draw_counts);
    free(cr->draw_bases);
    free(cr->draw_offsets);
    memset(cr, 0, sizeof *cr);
}

static void instanced_uniforms(const view_mesh_program *p, size_t rows)
{
    glUseProgram(p->id);
    glUniform1i(glGetUniformLocation(p->id, "u_palettes"), PALETTE_UNIT);
    glUniform1i(glGetUniformLocation(p->id, "u_instance_stride"), (GLint)(1 + rows));
    glUseProgram(0);
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
    instanced_uniforms(&cr->instanced, rows);
    /* Submeshes of at most 4 influences and no gaps (most Cal3D ones) take the lite variant. */
    char lite[200];
    snprintf(lite, sizeof lite, "%s#define OSSA_SKIN_LITE\n", defines);
    if (view_mesh_program_build(&cr->instanced_lite, lite, "mesh (crowd, instanced, lite)", err,
                                sizeof err))
        instanced_uniforms(&cr->instanced_lite, rows);
    else
        fprintf(stderr, "ossa-view: note: the lite crowd program is off: %s\n", err);
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

/* A buffer texture over buffer, read by texelFetch. */
static unsigned buffer_texture(unsigned buffer, GLenum format)
{
    GLuint t = 0;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_BUFFER, t);
    glTexBuffer(GL_TEXTURE_BUFFER, format, buffer);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    return t;
}

/* GPU mode's stage for the CPU parts of every character, and those parts' UVs in the same
 * order (one character's worth: the shader indexes them by vertex within the character). */
static bool cpu_part_buffers(view_crowd_renderer *cr, const view_scene *s, const view_crowd *c,
                             const view_scene_bind *bind)
{
    cr->cpu_part_stage = malloc(6 * (size_t)cr->cpu_part_vertices * c->count * sizeof(float));
    float *uvs = malloc(2 * (size_t)cr->cpu_part_vertices * sizeof *uvs);
    if (!cr->cpu_part_stage || !uvs) {
        free(uvs);
        return false;
    }
    for (uint32_t p = 0; p < s->part_count; p++)
        if (cr->cpu_parts[p])
            memcpy(uvs + 2 * (size_t)cr->cpu_part_first[p],
                   bind->uvs + 2 * (size_t)s->first_vertex[p],
                   2 * (size_t)s->parts[p].output_count * sizeof *uvs);
    glGenBuffers(1, &cr->cpu_part_uv_buffer);
    glBindBuffer(GL_TEXTURE_BUFFER, cr->cpu_part_uv_buffer);
    glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)(2 * (size_t)cr->cpu_part_vertices * sizeof *uvs),
                 uvs, GL_STATIC_DRAW);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    free(uvs);
    cr->cpu_part_uv_texture = buffer_texture(cr->cpu_part_uv_buffer, GL_RG32F);
    return true;
}

bool view_crowd_renderer_init(view_crowd_renderer *cr, const view_renderer *r,
                              const view_scene *s, const view_scene_bind *bind,
                              const view_crowd *c, char *err, size_t err_size)
{
    memset(cr, 0, sizeof *cr);
    /* The multi-draws' base vertices are GLint: every character's vertices must count in one. */
    if ((size_t)c->count * (c->vertex_count ? c->vertex_count : 1) > (size_t)INT32_MAX) {
        snprintf(err, err_size, "%u characters of %zu vertices pass what one draw can reach",
                 c->count, c->vertex_count);
        return false;
    }
    if (!view_mesh_program_build(&cr->cpu, "#define OSSA_CROWD_PLACES\n", "mesh (crowd)", err,
                                 err_size))
        return false;
    cr->places = glGetUniformLocation(cr->cpu.id, "u_places");
    cr->character_vertices = glGetUniformLocation(cr->cpu.id, "u_character_vertices");
    glUseProgram(cr->cpu.id);
    glUniform1i(cr->places, PLACES_UNIT);
    glUniform1i(glGetUniformLocation(cr->cpu.id, "u_uvs"), UVS_UNIT);
    glUseProgram(0);
    size_t parts = s->part_count ? s->part_count : 1;
    cr->cpu_parts = calloc(parts, sizeof *cr->cpu_parts);
    cr->cpu_part_first = calloc(parts, sizeof *cr->cpu_part_first);
    cr->draw_counts = malloc(c->count * sizeof *cr->draw_counts);
    cr->draw_bases = malloc(c->count * sizeof *cr->draw_bases);
    cr->draw_offsets = malloc(c->count * sizeof *cr->draw_offsets);
    float *places = calloc(4 * (size_t)c->count, sizeof *places);
    if (!cr->cpu_parts || !cr->cpu_part_first || !cr->draw_counts || !cr->draw_bases ||
        !cr->draw_offsets || !places) {
        free(places);
        snprintf(err, err_size, "out of memory");
        view_crowd_renderer_free(cr);
        return false;
    }
    for (uint32_t i = 0; i < c->count; i++)
        memcpy(places + 4 * (size_t)i, c->offsets + 3 * (size_t)i, 3 * sizeof *places);
    glGenBuffers(1, &cr->places_buffer);
    glBindBuffer(GL_TEXTURE_BUFFER, cr->places_buffer);
    glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)(4 * (size_t)c->count * sizeof *places), places,
                 GL_STATIC_DRAW);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    free(places);
    cr->places_texture = buffer_texture(cr->places_buffer, GL_RGBA32F);
    cr->uv_texture = buffer_texture(r->uv_buffer, GL_RG32F);
    /* Vertex tracks may play on any character at any time: such parts are CPU-written. */
    for (uint32_t i = 0; i < r->draw_count; i++) {
        const view_draw *d = &r->draws[i];
        bool cpu = d->cpu_only || s->parts[d->part].frame_tracked;
        cr->cpu_parts[d->part] = cpu;
        cr->cpu_part_count += cpu;
    }
    for (uint32_t p = 0; p < s->part_count; p++)
        if (cr->cpu_parts[p]) {
            cr->cpu_part_first[p] = cr->cpu_part_vertices;
            cr->cpu_part_vertices += s->parts[p].output_count;
        }
    if (cr->cpu_part_vertices && !cpu_part_buffers(cr, s, c, bind)) {
        snprintf(err, err_size, "out of memory");
        view_crowd_renderer_free(cr);
        return false;
    }
    size_t bytes = 3 * (c->vertex_count ? c->vertex_count : 1) * (size_t)c->count * sizeof(float);
    glGenBuffers(1, &cr->position_buffer);
    glGenBuffers(1, &cr->normal_buffer);
    glBindBuffer(GL_ARRAY_BUFFER, cr->position_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, cr->normal_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_DRAW);
    /* Positions and normals of character after character; their UVs come from u_uvs. */
    glGenVertexArrays(1, &cr->vao);
    glBindVertexArray(cr->vao);
    glBindBuffer(GL_ARRAY_BUFFER, cr->position_buffer);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    glBindBuffer(GL_ARRAY_BUFFER, cr->normal_buffer);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 0, NULL);
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
    return c->update_seconds + c->skin_seconds + c->pack_seconds + (cr ? cr->gather_seconds : 0.0);
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

/* The draws of a CPU or bind pass with the places program: each submesh in one call for every
 * character. CPU-skinned characters lie one after another in the crowd's buffers, so a
 * multi-draw gives each its base vertex; the bind pose is one set of vertices, drawn instanced.
 * The skip rule is draw_pass's. */
static void draw_places(const view_crowd_renderer *cr, const view_renderer *r,
                        const view_crowd *c, const view_frame *f, crowd_pass pass, bool gpu_parts,
                        bool flat)
{
    bool bind = pass == PASS_BIND, gathered = !bind && cr->gathered;
    uint32_t per = bind ? 0 : gathered ? cr->cpu_part_vertices : (uint32_t)c->vertex_count;
    begin_program(&cr->cpu, f, flat);
    glUniform1i(cr->character_vertices, (GLint)per);
    glActiveTexture(GL_TEXTURE0 + PLACES_UNIT);
    glBindTexture(GL_TEXTURE_BUFFER, cr->places_texture);
    glActiveTexture(GL_TEXTURE0 + UVS_UNIT);
    glBindTexture(GL_TEXTURE_BUFFER, gathered ? cr->cpu_part_uv_texture : cr->uv_texture);
    glActiveTexture(GL_TEXTURE0);
    glBindVertexArray(bind ? r->bind_vao : cr->vao);
    for (uint32_t k = 0; k < r->draw_count; k++) {
        const view_draw *d = &r->draws[k];
        if (!bind && cr->cpu_parts[d->part] == gpu_parts)
            continue;
        material(&cr->cpu, d, flat);
        if (bind) {
            glDrawElementsInstancedBaseVertex(GL_TRIANGLES, d->index_count, GL_UNSIGNED_INT,
                                              index_offset(d), (GLsizei)c->count,
                                              d->base_vertex);
            continue;
        }
        int32_t first = gathered ? (int32_t)cr->cpu_part_first[d->part] : d->base_vertex;
        for (uint32_t i = 0; i < c->count; i++) {
            cr->draw_counts[i] = d->index_count;
            cr->draw_offsets[i] = index_offset(d);
            cr->draw_bases[i] = first + (int32_t)(i * per);
        }
        glMultiDrawElementsBaseVertex(GL_TRIANGLES, cr->draw_counts, GL_UNSIGNED_INT,
                                      cr->draw_offsets, (GLsizei)c->count, cr->draw_bases);
    }
    for (int unit = PLACES_UNIT; unit <= UVS_UNIT; unit++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)unit);
        glBindTexture(GL_TEXTURE_BUFFER, 0);
    }
    glActiveTexture(GL_TEXTURE0);
}

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
        glActiveTexture(GL_TEXTURE0 + PALETTE_UNIT);
        glBindTexture(GL_TEXTURE_BUFFER, cr->palette_texture);
        glActiveTexture(GL_TEXTURE0);
        glBindVertexArray(r->gpu_vao);
        /* The lite program's submeshes first, then the others with the full one. */
        for (int full = 0; full <= 1; full++) {
            const view_mesh_program *p = full ? &cr->instanced : &cr->instanced_lite;
            bool begun = false;
            for (uint32_t k = 0; p->id && k < r->draw_count; k++) {
                const view_draw *d = &r->draws[k];
                bool lite = cr->instanced_lite.id && d->influences <= 4 && !d->gaps;
                if (cr->cpu_parts[d->part] == gpu_parts || lite == (full != 0))
                    continue;
                if (!begun)
                    begin_program(p, f, flat);
                begun = true;
                material(p, d, flat);
                glDrawElementsInstancedBaseVertex(GL_TRIANGLES, d->index_count,
                                                  GL_UNSIGNED_INT, index_offset(d),
                                                  (GLsizei)c->count, d->base_vertex);
            }
        }
        glActiveTexture(GL_TEXTURE0 + PALETTE_UNIT);
        glBindTexture(GL_TEXTURE_BUFFER, 0);
        glActiveTexture(GL_TEXTURE0);
        return;
    }
    if (pass != PASS_GPU) {
        draw_places(cr, r, c, f, pass, gpu_parts, flat);
        return;
    }
    const view_mesh_program *p = &cr->loop;
    begin_program(p, f, flat);
    glBindVertexArray(r->gpu_vao);
    size_t bones = c->model->bone_count;
    for (uint32_t i = 0; i < c->count; i++) {
        glUniform3fv(cr->loop_offset, 1, c->offsets + 3 * (size_t)i);
        {
            glBindBuffer(GL_UNIFORM_BUFFER, r->palette_buffer);
            glBufferSubData(GL_UNIFORM_BUFFER, 0, (GLsizeiptr)(12 * bones * sizeof(float)),
                            c->palettes[i]);
            glBindBuffer(GL_UNIFORM_BUFFER, 0);
            glBindBufferBase(GL_UNIFORM_BUFFER, PALETTE_BINDING, r->palette_buffer);
        }
        for (uint32_t k = 0; k < r->draw_count; k++) {
            const view_draw *d = &r->draws[k];
            if (cr->cpu_parts[d->part] == gpu_parts)
                continue;
            material(p, d, flat);
            glDrawElementsBaseVertex(GL_TRIANGLES, d->index_count, GL_UNSIGNED_INT,
                                     index_offset(d), d->base_vertex);
        }
    }
}

/* Positions and normals, floats of each, into the crowd's vertex buffers (orphaned first, so
 * the upload does not wait for the last frame's draws). */
static void upload(const view_crowd_renderer *cr, const float *positions, const float *normals,
                   size_t floats)
{
    GLsizeiptr bytes = (GLsizeiptr)(floats * sizeof(float));
    glBindBuffer(GL_ARRAY_BUFFER, cr->position_buffer);
    glBufferData(GL_ARRAY_BUFFER, bytes, NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, positions);
    glBindBuffer(GL_ARRAY_BUFFER, cr->normal_buffer);
    glBufferData(GL_ARRAY_BUFFER, bytes, NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, normals);
}

/* GPU mode: the CPU parts of every character, copied out of the crowd's arrays one after
 * another (positions, then normals), and uploaded; the rest of each body stays on the GPU. */
static void gather_cpu_parts(view_crowd_renderer *cr, const view_scene *s, const view_crowd *c)
{
    size_t per = cr->cpu_part_vertices, floats = 3 * per * c->count;
    if (!per)
        return;
    float *pos = cr->cpu_part_stage, *nrm = cr->cpu_part_stage + floats;
    for (uint32_t i = 0; i < c->count; i++)
        for (uint32_t p = 0; p < s->part_count; p++) {
            if (!cr->cpu_parts[p])
                continue;
            size_t from = 3 * ((size_t)i * c->vertex_count + s->first_vertex[p]);
            size_t to = 3 * ((size_t)i * per + cr->cpu_part_first[p]);
            size_t n = 3 * (size_t)s->parts[p].output_count * sizeof(float);
            memcpy(pos + to, c->positions + from, n);
            memcpy(nrm + to, c->normals + from, n);
        }
    upload(cr, pos, nrm, floats);
}

static bool gpu_mode(const view_crowd_renderer *cr, const view_display *d)
{
    return !d->bind_pose && d->skinning == VIEW_SKIN_GPU && (cr->use_instancing || cr->loop.id);
}

void view_crowd_renderer_wants(view_crowd_renderer *cr, const view_renderer *r,
                               const view_crowd *c, const view_display *d, view_crowd_wants *out)
{
    bool gpu = gpu_mode(cr, d);
    out->skin = !d->bind_pose && r->draw_count && c->vertex_count && (!gpu || cr->cpu_part_count);
    out->part_mask = gpu ? cr->cpu_parts : NULL;
    out->packed = gpu && cr->use_instancing ? cr->packed : NULL;
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
    bool gpu = gpu_mode(cr, d);
    cr->gather_seconds = 0.0;
    cr->vertices_per_frame = 0;
    cr->gathered = false;
    if (!bind && r->draw_count && c->vertex_count && (!gpu || cr->cpu_part_count)) {
        if (gpu) {
            double t0 = now_seconds();
            gather_cpu_parts(cr, s, c);
            cr->gathered = true;
            cr->gather_seconds = now_seconds() - t0;
        } else {
            upload(cr, c->positions, c->normals, 3 * c->vertex_count * (size_t)c->count);
            cr->vertices_per_frame = c->skinned_vertices;
        }
    }
    if (gpu) {
        for (uint32_t k = 0; k < r->draw_count; k++)
            cr->vertices_per_frame += (size_t)r->draws[k].vertex_count * c->count;
        if (cr->use_instancing) {
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
