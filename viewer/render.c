#include "render.h"

#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa_glsl.h"

/* Colour of submeshes without a material, and of the bone overlay. */
static const float no_material_rgb[3] = {0.7f, 0.7f, 0.7f};
static const float bone_rgb[3] = {1.0f, 0.85f, 0.1f};

static GLuint compile(GLenum kind, const char *source, const char *name, char *err, size_t n)
{
    GLuint sh = glCreateShader(kind);
    glShaderSource(sh, 1, &source, NULL);
    glCompileShader(sh);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetShaderInfoLog(sh, sizeof log, NULL, log);
        snprintf(err, n, "shader %s does not compile: %s", name, log);
        glDeleteShader(sh);
        return 0;
    }
    return sh;
}

static GLuint link(const char *vs_src, const char *fs_src, const char *name, char *err, size_t n)
{
    GLuint vs = compile(GL_VERTEX_SHADER, vs_src, name, err, n);
    if (!vs)
        return 0;
    GLuint fs = compile(GL_FRAGMENT_SHADER, fs_src, name, err, n);
    if (!fs) {
        glDeleteShader(vs);
        return 0;
    }
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        snprintf(err, n, "shader %s does not link: %s", name, log);
        glDeleteProgram(prog);
        return 0;
    }
    return prog;
}

/* One vertex attribute of 3 floats from its own buffer. */
static void attribute3(GLuint location, GLuint buffer, size_t count)
{
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(3 * count * sizeof(float)), NULL, GL_STREAM_DRAW);
    glEnableVertexAttribArray(location);
    glVertexAttribPointer(location, 3, GL_FLOAT, GL_FALSE, 0, NULL);
}

/* Lays every submesh's indices into one buffer; each draw adds its base vertex. */
static bool build_draws(view_renderer *r, const ossa_model *m, char *err, size_t n)
{
    size_t index_total = 0;
    uint32_t draws = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            index_total += 3 * (size_t)m->meshes[i].submeshes[j].face_count;
            draws++;
        }
    /* GL takes counts and base vertices as signed 32-bit numbers. */
    if (index_total > INT32_MAX / 4 || r->vertex_count > INT32_MAX) {
        snprintf(err, n, "model too large to draw (%zu indices, %zu vertices)", index_total,
                 r->vertex_count);
        return false;
    }
    r->draws = calloc(draws ? draws : 1, sizeof *r->draws);
    uint32_t *indices = calloc(index_total ? index_total : 1, sizeof *indices);
    if (!r->draws || !indices) {
        free(indices);
        snprintf(err, n, "out of memory for %zu indices", index_total);
        return false;
    }
    size_t at = 0, base = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            view_draw *d = &r->draws[r->draw_count++];
            size_t count = 3 * (size_t)sm->face_count;
            d->first_index = at;
            d->index_count = (int32_t)count;
            d->base_vertex = (int32_t)base;
            const float *rgb = sm->material >= 0 && (uint32_t)sm->material < m->material_count
                                   ? m->materials[sm->material].diffuse
                                   : no_material_rgb;
            memcpy(d->diffuse, rgb, sizeof d->diffuse);
            if (count)
                memcpy(indices + at, sm->indices, count * sizeof *indices);
            at += count;
            base += sm->vertex_count;
        }
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->index_buffer);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(index_total * sizeof *indices), indices,
                 GL_STATIC_DRAW);
    free(indices);
    return true;
}

bool view_renderer_init(view_renderer *r, const view_scene *s, char *err, size_t err_size)
{
    memset(r, 0, sizeof *r);
    r->vertex_count = s->vertex_count;
    r->mesh_program = link(ossa_glsl_mesh_vert, ossa_glsl_mesh_frag, "mesh", err, err_size);
    r->line_program = link(ossa_glsl_lines_vert, ossa_glsl_lines_frag, "lines", err, err_size);
    if (!r->mesh_program || !r->line_program) {
        view_renderer_free(r);
        return false;
    }
    r->mesh_view_proj = glGetUniformLocation(r->mesh_program, "u_view_proj");
    r->mesh_diffuse = glGetUniformLocation(r->mesh_program, "u_diffuse");
    r->mesh_light_dir = glGetUniformLocation(r->mesh_program, "u_light_dir");
    r->mesh_ambient = glGetUniformLocation(r->mesh_program, "u_ambient");
    r->line_view_proj = glGetUniformLocation(r->line_program, "u_view_proj");
    r->line_color = glGetUniformLocation(r->line_program, "u_color");

    glGenVertexArrays(1, &r->mesh_vao);
    glGenBuffers(1, &r->position_buffer);
    glGenBuffers(1, &r->normal_buffer);
    glGenBuffers(1, &r->index_buffer);
    glBindVertexArray(r->mesh_vao);
    attribute3(0, r->position_buffer, s->vertex_count);
    attribute3(1, r->normal_buffer, s->vertex_count);
    bool ok = build_draws(r, s->model, err, err_size); /* the VAO records the index buffer */
    glBindVertexArray(0);
    if (!ok) {
        view_renderer_free(r);
        return false;
    }

    glGenVertexArrays(1, &r->line_vao);
    glGenBuffers(1, &r->line_buffer);
    glBindVertexArray(r->line_vao);
    attribute3(0, r->line_buffer, 2 * (size_t)(s->model->bone_count ? s->model->bone_count : 1));
    glBindVertexArray(0);
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
    if (r->mesh_program)
        glDeleteProgram(r->mesh_program);
    if (r->line_program)
        glDeleteProgram(r->line_program);
    GLuint buffers[4] = {r->position_buffer, r->normal_buffer, r->index_buffer, r->line_buffer};
    glDeleteBuffers(4, buffers); /* zero names are ignored */
    GLuint vaos[2] = {r->mesh_vao, r->line_vao};
    glDeleteVertexArrays(2, vaos);
    free(r->draws);
    memset(r, 0, sizeof *r);
}

void view_renderer_draw(view_renderer *r, const view_scene *s, const view_frame *f)
{
    glViewport(0, 0, f->width, f->height);
    glClearColor(VIEW_BACKGROUND_RGB, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE); /* windings differ between legacy exporters */

    if (r->vertex_count) {
        size_t bytes = 3 * r->vertex_count * sizeof(float);
        glBindBuffer(GL_ARRAY_BUFFER, r->position_buffer);
        glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, s->positions);
        glBindBuffer(GL_ARRAY_BUFFER, r->normal_buffer);
        glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, s->normals);
        glUseProgram(r->mesh_program);
        glUniformMatrix4fv(r->mesh_view_proj, 1, GL_FALSE, f->view_proj);
        glUniform3fv(r->mesh_light_dir, 1, f->light_dir);
        glUniform1f(r->mesh_ambient, 0.3f);
        glBindVertexArray(r->mesh_vao);
        for (uint32_t i = 0; i < r->draw_count; i++) {
            const view_draw *d = &r->draws[i];
            if (!d->index_count)
                continue;
            glUniform3fv(r->mesh_diffuse, 1, d->diffuse);
            glDrawElementsBaseVertex(GL_TRIANGLES, d->index_count, GL_UNSIGNED_INT,
                                     (const void *)(d->first_index * sizeof(uint32_t)),
                                     d->base_vertex);
        }
    }

    if (f->show_bones && s->bone_line_count) {
        /* On top of the mesh: the skeleton is usually inside it. */
        glDisable(GL_DEPTH_TEST);
        glBindBuffer(GL_ARRAY_BUFFER, r->line_buffer);
        glBufferSubData(GL_ARRAY_BUFFER, 0,
                        (GLsizeiptr)(6 * (size_t)s->bone_line_count * sizeof(float)),
                        s->bone_lines);
        glUseProgram(r->line_program);
        glUniformMatrix4fv(r->line_view_proj, 1, GL_FALSE, f->view_proj);
        glUniform3fv(r->line_color, 1, bone_rgb);
        glBindVertexArray(r->line_vao);
        glDrawArrays(GL_LINES, 0, (GLsizei)(2 * s->bone_line_count));
        glEnable(GL_DEPTH_TEST);
    }
    glBindVertexArray(0);
    glUseProgram(0);
}
