#include "render.h"

#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "texture.h"

/* Colour of submeshes without a material, and of the overlays. */
static const float no_material_rgb[3] = {0.7f, 0.7f, 0.7f};
static const float bone_rgb[3] = {1.0f, 0.85f, 0.1f};
static const float wire_rgb[3] = {0.05f, 0.05f, 0.06f};
static const float normal_rgb[3] = {0.3f, 0.8f, 1.0f};
static const float grid_rgb[3] = {0.38f, 0.40f, 0.44f};
static const float axis_rgb[3][3] = {{0.95f, 0.2f, 0.2f}, {0.2f, 0.9f, 0.3f},
                                     {0.25f, 0.45f, 1.0f}}; /* mount tripods: X, Y, Z */

/* Attribute locations of mesh.vert. */
enum { ATTR_POSITION, ATTR_NORMAL, ATTR_UV, ATTR_BONES0, ATTR_BONES1, ATTR_WEIGHTS0, ATTR_WEIGHTS1,
       ATTR_GAP0 /* .. ATTR_GAP0 + 7 */ };
enum { PALETTE_BINDING = 0, GPU_MAX_INFLUENCES = 8 };

/* Which buffers and program a draw uses in a frame. */
typedef enum draw_path { PATH_SKINNED, PATH_GPU, PATH_BIND, PATH_COUNT } draw_path;

/* The GPU variant, when the palette fits a uniform block; false leaves the CPU path only. */
static bool gpu_programs(view_renderer *r)
{
    if (!r->bone_count)
        return false; /* nothing to skin: both paths are the bind pose */
    GLint max_block = 0;
    glGetIntegerv(GL_MAX_UNIFORM_BLOCK_SIZE, &max_block);
    size_t rows = 3 * (size_t)r->bone_count;
    if (rows * 16 > (size_t)max_block) {
        fprintf(stderr,
                "ossa-view: note: %u bones do not fit a uniform block of %d bytes; GPU skinning "
                "is off and the CPU skins\n",
                r->bone_count, max_block);
        return false;
    }
    char defines[96], err[1200];
    snprintf(defines, sizeof defines, "#define OSSA_GPU_SKINNING\n#define OSSA_PALETTE_ROWS %zu\n",
             rows);
    if (!view_mesh_program_build(&r->mesh_gpu, defines, "mesh (gpu skinning)", err, sizeof err) ||
        !view_line_program_build(&r->normals_gpu, defines, true, "normals (gpu skinning)", err,
                                 sizeof err)) {
        fprintf(stderr, "ossa-view: note: GPU skinning is off: %s\n", err);
        if (r->mesh_gpu.id)
            glDeleteProgram(r->mesh_gpu.id);
        memset(&r->mesh_gpu, 0, sizeof r->mesh_gpu);
        return false;
    }
    view_program_bind_palette(r->mesh_gpu.id, PALETTE_BINDING);
    view_program_bind_palette(r->normals_gpu.id, PALETTE_BINDING);
    /* Submeshes of at most 4 influences and no gaps (most Cal3D ones) skip half the shader. */
    char lite[128];
    snprintf(lite, sizeof lite, "%s#define OSSA_SKIN_LITE\n", defines);
    if (view_mesh_program_build(&r->mesh_gpu_lite, lite, "mesh (gpu skinning, lite)", err,
                                sizeof err))
        view_program_bind_palette(r->mesh_gpu_lite.id, PALETTE_BINDING);
    else
        fprintf(stderr, "ossa-view: note: the lite GPU skinning program is off: %s\n", err);
    glGenBuffers(1, &r->palette_buffer);
    glBindBuffer(GL_UNIFORM_BUFFER, r->palette_buffer);
    glBufferData(GL_UNIFORM_BUFFER, (GLsizeiptr)(rows * 16), NULL, GL_STREAM_DRAW);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    return true;
}

static void static_buffer(GLuint buffer, size_t bytes, const void *data)
{
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, data, data ? GL_STATIC_DRAW : GL_STREAM_DRAW);
}

static void float_attribute(GLuint location, GLuint buffer, GLint size, GLsizei stride,
                            size_t offset)
{
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glEnableVertexAttribArray(location);
    glVertexAttribPointer(location, size, GL_FLOAT, GL_FALSE, stride, (const void *)offset);
}

/* Position, normal and UV attributes from the given buffers, and the shared index buffer. */
static void mesh_vao(const view_renderer *r, GLuint vao, GLuint positions, GLuint normals)
{
    glBindVertexArray(vao);
    float_attribute(ATTR_POSITION, positions, 3, 0, 0);
    float_attribute(ATTR_NORMAL, normals, 3, 0, 0);
    float_attribute(ATTR_UV, r->uv_buffer, 2, 0, 0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->index_buffer);
}

/* The bind vertices, UVs, bone indices, weights and gaps in the scene's layout. */
static void upload_vertices(view_renderer *r, const view_scene_bind *b)
{
    size_t v = r->vertex_count;
    static_buffer(r->bind_position_buffer, 3 * v * sizeof(float), b->positions);
    static_buffer(r->bind_normal_buffer, 3 * v * sizeof(float), b->normals);
    static_buffer(r->uv_buffer, 2 * v * sizeof(float), b->uvs);
    static_buffer(r->bone_buffer, 8 * v * sizeof(uint16_t), b->bones);
    static_buffer(r->weight_buffer, 8 * v * sizeof(float), b->weights);
    static_buffer(r->gap_buffer, 24 * v * sizeof(float), b->gaps);
    static_buffer(r->position_buffer, 3 * v * sizeof(float), NULL);
    static_buffer(r->normal_buffer, 3 * v * sizeof(float), NULL);
}

/* One texture per material that has a diffuse map; a file is loaded (or warned about) once
 * however many materials name it. */
static bool load_textures(view_renderer *r, const ossa_model *m)
{
    r->texture_count = m->material_count;
    r->textures = calloc(m->material_count ? m->material_count : 1, sizeof *r->textures);
    if (!r->textures)
        return false;
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ossa_texture_map *map = ossa_material_diffuse_map(&m->materials[i]);
        if (!map)
            continue;
        const char *path = map->path ? map->path : map->file;
        bool seen = false;
        for (uint32_t j = 0; j < i && !seen; j++) {
            const ossa_texture_map *other = ossa_material_diffuse_map(&m->materials[j]);
            const char *other_path = other ? (other->path ? other->path : other->file) : NULL;
            if (other_path && strcmp(other_path, path) == 0) {
                r->textures[i] = r->textures[j];
                seen = true;
            }
        }
        if (seen)
            continue;
        char why[512];
        r->textures[i] = view_texture_load(path, why, sizeof why);
        if (!r->textures[i])
            fprintf(stderr,
                    "ossa-view: warning: texture %s cannot be loaded (%s); its material shows "
                    "its colour\n",
                    path, why);
    }
    return true;
}

/* Lays every drawn part's indices into one buffer; each draw adds its base vertex. */
static bool build_draws(view_renderer *r, const view_scene *s, const uint32_t *max_influences,
                        char *err, size_t n)
{
    const ossa_model *m = s->model;
    size_t index_total = 0;
    for (uint32_t i = 0; i < s->part_count; i++)
        index_total += s->parts[i].index_count;
    if (index_total > INT32_MAX / 4) {
        snprintf(err, n, "model too large to draw (%zu indices)", index_total);
        return false;
    }
    r->draws = calloc(s->part_count ? s->part_count : 1, sizeof *r->draws);
    r->cpu_parts = calloc(s->part_count ? s->part_count : 1, sizeof *r->cpu_parts);
    uint32_t *indices = calloc(index_total ? index_total : 1, sizeof *indices);
    if (!r->draws || !r->cpu_parts || !indices) {
        free(indices);
        snprintf(err, n, "out of memory for %zu indices", index_total);
        return false;
    }
    size_t at = 0;
    for (uint32_t i = 0; i < s->part_count; i++) {
        const ossa_instance_part *p = &s->parts[i];
        if (s->hidden[i] || !p->index_count)
            continue;
        const ossa_submesh *sm = p->source;
        view_draw *d = &r->draws[r->draw_count++];
        d->first_index = at;
        d->index_count = (int32_t)p->index_count;
        d->base_vertex = (int32_t)s->first_vertex[i];
        d->part = i;
        d->first_vertex = s->first_vertex[i];
        d->vertex_count = p->output_count;
        bool has_material = sm->material >= 0 && (uint32_t)sm->material < m->material_count;
        memcpy(d->diffuse, has_material ? m->materials[sm->material].diffuse : no_material_rgb,
               sizeof d->diffuse);
        if (has_material && sm->uv_set_count && sm->uvs)
            d->texture = r->textures[sm->material];
        d->flip_v = view_texture_origin_bottom(m->meshes[p->mesh].format);
        d->uv_tracked = p->uv_tracked;
        d->cpu_only = max_influences[i] > GPU_MAX_INFLUENCES;
        d->influences = max_influences[i];
        d->gaps = sm->influence_points != NULL;
        /* mesh.vert has no morph targets or spring system: such parts stay on the CPU
         * (view_renderer_print_gpu_notes names them when GPU skinning is used). */
        d->cpu_only |= p->morph_weights != NULL || p->spring != NULL;
        r->cpu_parts[i] = d->cpu_only;
        r->cpu_only_parts += d->cpu_only && r->mesh_gpu.id;
        memcpy(indices + at, p->indices, p->index_count * sizeof *indices);
        at += p->index_count;
    }
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->index_buffer);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(at * sizeof *indices), indices,
                 GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    free(indices);
    return true;
}

static void line_vao(GLuint vao, GLuint buffer, size_t vertices)
{
    glBindVertexArray(vao);
    static_buffer(buffer, 3 * vertices * sizeof(float), NULL);
    float_attribute(0, buffer, 3, 0, 0);
    glBindVertexArray(0);
}

static bool create_buffers(view_renderer *r, const view_scene *s, const view_scene_bind *bind,
                           char *err, size_t n)
{
    GLuint *buffers[] = {&r->position_buffer, &r->normal_buffer, &r->bind_position_buffer,
                         &r->bind_normal_buffer, &r->uv_buffer, &r->bone_buffer,
                         &r->weight_buffer, &r->gap_buffer, &r->index_buffer, &r->line_buffer,
                         &r->grid_buffer, &r->mount_buffer};
    for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; i++)
        glGenBuffers(1, buffers[i]);
    GLuint *vaos[] = {&r->skinned_vao, &r->gpu_vao, &r->bind_vao, &r->line_vao, &r->grid_vao,
                      &r->mount_vao};
    for (size_t i = 0; i < sizeof vaos / sizeof vaos[0]; i++)
        glGenVertexArrays(1, vaos[i]);
    upload_vertices(r, bind);
    if (!build_draws(r, s, bind->max_influences, err, n))
        return false;

    mesh_vao(r, r->skinned_vao, r->position_buffer, r->normal_buffer);
    mesh_vao(r, r->bind_vao, r->bind_position_buffer, r->bind_normal_buffer);
    mesh_vao(r, r->gpu_vao, r->bind_position_buffer, r->bind_normal_buffer);
    glBindBuffer(GL_ARRAY_BUFFER, r->bone_buffer);
    glEnableVertexAttribArray(ATTR_BONES0);
    glVertexAttribIPointer(ATTR_BONES0, 4, GL_UNSIGNED_SHORT, 8 * sizeof(uint16_t), NULL);
    glEnableVertexAttribArray(ATTR_BONES1);
    glVertexAttribIPointer(ATTR_BONES1, 4, GL_UNSIGNED_SHORT, 8 * sizeof(uint16_t),
                           (const void *)(4 * sizeof(uint16_t)));
    float_attribute(ATTR_WEIGHTS0, r->weight_buffer, 4, 8 * sizeof(float), 0);
    float_attribute(ATTR_WEIGHTS1, r->weight_buffer, 4, 8 * sizeof(float), 4 * sizeof(float));
    for (GLuint k = 0; k < 8; k++)
        float_attribute(ATTR_GAP0 + k, r->gap_buffer, 3, 24 * sizeof(float),
                        3 * k * sizeof(float));
    glBindVertexArray(0);

    line_vao(r->line_vao, r->line_buffer, 2 * (size_t)(r->bone_count ? r->bone_count : 1));
    line_vao(r->grid_vao, r->grid_buffer, 2 * (size_t)VIEW_GRID_LINES);
    if (r->mount_count)
        line_vao(r->mount_vao, r->mount_buffer, 6 * (size_t)r->mount_count);
    return true;
}

bool view_renderer_init(view_renderer *r, const view_scene *s, const view_scene_bind *bind,
                        char *err, size_t err_size)
{
    memset(r, 0, sizeof *r);
    r->vertex_count = s->vertex_count;
    r->bone_count = s->model->bone_count;
    r->mount_count = s->model->mount_count;
    memcpy(r->bind_min, bind->min, sizeof r->bind_min);
    memcpy(r->bind_max, bind->max, sizeof r->bind_max);
    float diagonal = 0.0f;
    for (int k = 0; k < 3; k++)
        diagonal += (r->bind_max[k] - r->bind_min[k]) * (r->bind_max[k] - r->bind_min[k]);
    r->normal_length = 0.02f * (diagonal > 0.0f ? sqrtf(diagonal) : 1.0f);
    r->mount_length = 0.06f * (diagonal > 0.0f ? sqrtf(diagonal) : 1.0f);

    if (!view_mesh_program_build(&r->mesh_cpu, NULL, "mesh", err, err_size) ||
        !view_line_program_build(&r->lines, NULL, false, "lines", err, err_size) ||
        !view_line_program_build(&r->normals_cpu, NULL, true, "normals", err, err_size)) {
        view_renderer_free(r);
        return false;
    }
    gpu_programs(r);
    if (!load_textures(r, s->model)) {
        snprintf(err, err_size, "out of memory");
        view_renderer_free(r);
        return false;
    }
    if (!create_buffers(r, s, bind, err, err_size)) {
        view_renderer_free(r);
        return false;
    }
    bool frames = false;
    for (uint32_t i = 0; i < s->part_count; i++)
        frames |= s->parts[i].frame_tracked;
    snprintf(r->cpu_name, sizeof r->cpu_name, "%s",
             r->bone_count ? s->kernel_name
                           : frames ? "vertex frames" : "none (no skeleton)");
    if (!r->bone_count)
        snprintf(r->gpu_name, sizeof r->gpu_name, "%s", r->cpu_name);
    else if (r->cpu_only_parts)
        snprintf(r->gpu_name, sizeof r->gpu_name, "gpu + %s", r->cpu_name);
    else
        snprintf(r->gpu_name, sizeof r->gpu_name, "gpu");
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(err, err_size, "GL error 0x%x while creating buffers", e);
        view_renderer_free(r);
        return false;
    }
    return true;
}

void view_renderer_free(view_renderer *r)
{
    GLuint programs[] = {r->mesh_cpu.id, r->mesh_gpu.id, r->mesh_gpu_lite.id, r->lines.id,
                         r->normals_cpu.id, r->normals_gpu.id};
    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++)
        if (programs[i])
            glDeleteProgram(programs[i]);
    GLuint buffers[] = {r->position_buffer, r->normal_buffer, r->bind_position_buffer,
                        r->bind_normal_buffer, r->uv_buffer, r->bone_buffer, r->weight_buffer,
                        r->gap_buffer, r->index_buffer, r->palette_buffer, r->line_buffer,
                        r->grid_buffer, r->mount_buffer};
    glDeleteBuffers((GLsizei)(sizeof buffers / sizeof buffers[0]), buffers); /* 0 is ignored */
    GLuint vaos[] = {r->skinned_vao, r->gpu_vao, r->bind_vao, r->line_vao, r->grid_vao,
                     r->mount_vao};
    glDeleteVertexArrays((GLsizei)(sizeof vaos / sizeof vaos[0]), vaos);
    if (r->textures) /* names repeat where materials share a file; repeats are ignored */
        glDeleteTextures((GLsizei)r->texture_count, r->textures);
    free(r->textures);
    free(r->draws);
    free(r->cpu_parts);
    memset(r, 0, sizeof *r);
}

static draw_path path_of(const view_draw *d, bool bind, bool gpu)
{
    if (bind)
        return PATH_BIND;
    return gpu && !d->cpu_only && !d->frames ? PATH_GPU : PATH_SKINNED;
}

/* CPU path: the parts the scene skinned this frame (view_scene_prepare), uploaded. In CPU mode
 * that is every drawn part, at once; in GPU mode only the parts the shader cannot take and those
 * playing vertex frames, each its own range. */
static void upload_skinned(const view_renderer *r, const view_scene_frame *frame, bool gpu)
{
    GLuint buffers[2] = {r->position_buffer, r->normal_buffer};
    const float *data[2] = {frame->positions, frame->normals};
    for (int b = 0; b < 2; b++) {
        glBindBuffer(GL_ARRAY_BUFFER, buffers[b]);
        if (!gpu) {
            glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(3 * r->vertex_count * sizeof(float)),
                            data[b]);
            continue;
        }
        for (uint32_t i = 0; i < r->draw_count; i++) {
            const view_draw *d = &r->draws[i];
            if (frame->cpu[d->part])
                glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)(3 * sizeof(float) * d->first_vertex),
                                (GLsizeiptr)(3 * sizeof(float) * d->vertex_count),
                                data[b] + 3 * (size_t)d->first_vertex);
        }
    }
}

/* The program a draw of the GPU path uses. */
static const view_mesh_program *gpu_program(const view_renderer *r, const view_draw *d)
{
    bool lite = r->mesh_gpu_lite.id && d->influences <= 4 && !d->gaps;
    return lite ? &r->mesh_gpu_lite : &r->mesh_gpu;
}

static void draw_meshes(const view_renderer *r, const view_frame *f, bool bind, bool gpu,
                        bool flat)
{
    for (int path = 0; path < PATH_COUNT; path++) {
        GLuint vao = path == PATH_GPU ? r->gpu_vao : path == PATH_BIND ? r->bind_vao
                                                                        : r->skinned_vao;
        const view_mesh_program *in_use = NULL;
        for (uint32_t i = 0; i < r->draw_count; i++) {
            const view_draw *d = &r->draws[i];
            if (path_of(d, bind, gpu) != (draw_path)path)
                continue;
            const view_mesh_program *p = path == PATH_GPU ? gpu_program(r, d) : &r->mesh_cpu;
            if (p != in_use) {
                glUseProgram(p->id);
                glUniformMatrix4fv(p->view_proj, 1, GL_FALSE, f->view_proj);
                glUniform3fv(p->light_dir, 1, f->light_dir);
                glUniform1f(p->ambient, 0.3f);
                glUniform1i(p->flat, flat);
                glBindVertexArray(vao);
                in_use = p;
            }
            glUniform3fv(p->diffuse, 1, flat ? wire_rgb : d->diffuse);
            bool textured = !flat && d->texture;
            glUniform1i(p->textured, textured);
            if (textured) {
                glActiveTexture(GL_TEXTURE0);
                glBindTexture(GL_TEXTURE_2D, d->texture);
                glUniform1i(p->flip_v, d->flip_v);
            }
            glDrawElementsBaseVertex(GL_TRIANGLES, d->index_count, GL_UNSIGNED_INT,
                                     (const void *)(d->first_index * sizeof(uint32_t)),
                                     d->base_vertex);
        }
    }
    glBindTexture(GL_TEXTURE_2D, 0);
}

/* A point per vertex through the path's vertex shader; normals.geom turns it into a line. */
static void draw_normals(const view_renderer *r, const view_scene *s, const view_frame *f,
                         bool bind, bool gpu)
{
    for (int path = 0; path < PATH_COUNT; path++) {
        const view_line_program *p = path == PATH_GPU ? &r->normals_gpu : &r->normals_cpu;
        GLuint vao = path == PATH_GPU ? r->gpu_vao : path == PATH_BIND ? r->bind_vao
                                                                        : r->skinned_vao;
        bool started = false;
        for (uint32_t i = 0; i < r->draw_count; i++) {
            const view_draw *d = &r->draws[i];
            if (path_of(d, bind, gpu) != (draw_path)path)
                continue;
            if (!started) {
                glUseProgram(p->id);
                glUniformMatrix4fv(p->view_proj, 1, GL_FALSE, f->view_proj);
                glUniform3fv(p->color, 1, normal_rgb);
                glUniform1f(p->length, r->normal_length);
                glBindVertexArray(vao);
                started = true;
            }
            glDrawArrays(GL_POINTS, (GLint)d->first_vertex, (GLsizei)d->vertex_count);
        }
    }
}

static void draw_lines(const view_renderer *r, const view_frame *f, GLuint vao, GLuint buffer,
                       const float *points, uint32_t lines, const float rgb[3])
{
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(6 * (size_t)lines * sizeof(float)), points);
    glUseProgram(r->lines.id);
    glUniformMatrix4fv(r->lines.view_proj, 1, GL_FALSE, f->view_proj);
    glUniform3fv(r->lines.color, 1, rgb);
    glBindVertexArray(vao);
    glDrawArrays(GL_LINES, 0, (GLsizei)(2 * lines));
}

/* Each mount's axes on top of the mesh, one colour per axis (placed by view_scene_prepare). */
static void draw_mounts(const view_renderer *r, const view_scene_frame *frame, const view_frame *f)
{
    uint32_t placed = frame->mounts_placed;
    if (!placed)
        return;
    glBindBuffer(GL_ARRAY_BUFFER, r->mount_buffer);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(18 * (size_t)r->mount_count * sizeof(float)),
                    frame->mount_lines);
    glDisable(GL_DEPTH_TEST);
    glUseProgram(r->lines.id);
    glUniformMatrix4fv(r->lines.view_proj, 1, GL_FALSE, f->view_proj);
    glBindVertexArray(r->mount_vao);
    for (int axis = 0; axis < 3; axis++) {
        glUniform3fv(r->lines.color, 1, axis_rgb[axis]);
        glDrawArrays(GL_LINES, (GLint)(2 * (size_t)axis * r->mount_count), (GLsizei)(2 * placed));
    }
    glEnable(GL_DEPTH_TEST);
}

void view_renderer_draw(view_renderer *r, const view_scene *s, const view_frame *f)
{
    glViewport(0, 0, f->width, f->height);
    glClearColor(VIEW_BACKGROUND_RGB, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_CULL_FACE); /* windings differ between legacy exporters */

    const view_display *d = &f->display;
    bool bind = d->bind_pose;
    bool gpu = !bind && d->skinning == VIEW_SKIN_GPU && r->mesh_gpu.id;
    const view_scene_frame *frame = &s->frame;
    for (uint32_t i = 0; i < r->draw_count; i++) {
        view_draw *dr = &r->draws[i];
        dr->frames = frame->vertex_frames[dr->part];
        if (dr->uv_tracked) {
            glBindBuffer(GL_ARRAY_BUFFER, r->uv_buffer);
            glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)(2 * sizeof(float) * dr->first_vertex),
                            (GLsizeiptr)(2 * sizeof(float) * dr->vertex_count),
                            frame->uvs + 2 * (size_t)dr->first_vertex);
        }
    }
    if (!bind && r->vertex_count && frame->cpu_any)
        upload_skinned(r, frame, gpu);
    if (gpu) {
        glBindBuffer(GL_UNIFORM_BUFFER, r->palette_buffer);
        glBufferSubData(GL_UNIFORM_BUFFER, 0, (GLsizeiptr)(12 * (size_t)r->bone_count * sizeof(float)),
                        s->palette);
        glBindBuffer(GL_UNIFORM_BUFFER, 0);
        glBindBufferBase(GL_UNIFORM_BUFFER, PALETTE_BINDING, r->palette_buffer);
    }

    if (d->grid) {
        view_grid_build(r->bind_min, r->bind_max, f->up, r->grid);
        draw_lines(r, f, r->grid_vao, r->grid_buffer, r->grid, VIEW_GRID_LINES, grid_rgb);
    }
    if (r->draw_count) {
        if (d->wireframe) { /* shaded surface pushed back a little, the edges on top of it */
            glEnable(GL_POLYGON_OFFSET_FILL);
            glPolygonOffset(1.0f, 1.0f);
        }
        draw_meshes(r, f, bind, gpu, false);
        if (d->wireframe) {
            glDisable(GL_POLYGON_OFFSET_FILL);
            glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
            draw_meshes(r, f, bind, gpu, true);
            glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
        }
        if (d->normals)
            draw_normals(r, s, f, bind, gpu);
    }
    uint32_t bone_lines = s->bone_line_count;
    if (d->bones && bone_lines) {
        /* On top of the mesh: the skeleton is usually inside it. */
        glDisable(GL_DEPTH_TEST);
        draw_lines(r, f, r->line_vao, r->line_buffer, bind ? s->bind_bone_lines : s->bone_lines,
                   bone_lines, bone_rgb);
        glEnable(GL_DEPTH_TEST);
    }
    if (d->bones && r->mount_count)
        draw_mounts(r, frame, f);
    glBindVertexArray(0);
    glUseProgram(0);
}

void view_renderer_wants(const view_renderer *r, const view_display *d, view_scene_wants *out)
{
    bool gpu = !d->bind_pose && d->skinning == VIEW_SKIN_GPU && r->mesh_gpu.id;
    out->bind = d->bind_pose;
    out->cpu_parts = gpu ? r->cpu_parts : NULL;
    out->mount_length = d->bones && r->mount_count ? r->mount_length : 0.0f;
}

const char *view_renderer_skinning_name(const view_renderer *r, const view_display *d)
{
    return d->skinning == VIEW_SKIN_GPU && r->mesh_gpu.id ? r->gpu_name : r->cpu_name;
}

void view_renderer_print_gpu_notes(const view_renderer *r, const view_scene *s, FILE *out)
{
    if (!r->mesh_gpu.id)
        return;
    for (uint32_t i = 0; i < r->draw_count; i++) {
        const view_draw *d = &r->draws[i];
        const ossa_instance_part *p = &s->parts[d->part];
        if (d->influences > GPU_MAX_INFLUENCES)
            fprintf(out,
                    "ossa-view: note: mesh %u submesh %u has vertices with %u influences (the "
                    "GPU path takes %d): it is skinned on the CPU in GPU mode too\n",
                    p->mesh, p->submesh, d->influences, GPU_MAX_INFLUENCES);
        else if (p->morph_weights || p->spring)
            fprintf(out,
                    "ossa-view: note: mesh %u submesh %u has %s: it is skinned on the CPU in GPU "
                    "mode too\n",
                    p->mesh, p->submesh,
                    p->morph_weights && p->spring ? "morph targets and springs"
                    : p->morph_weights            ? "morph targets played by morph clips"
                                                  : "springs");
    }
}
