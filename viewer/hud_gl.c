#include "hud_gl.h"

#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ossa_glsl.h"

static GLuint compile(GLenum type, const char *source, char *err, size_t err_size)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &source, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[512];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        snprintf(err, err_size, "HUD shader does not compile: %s", log);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

bool view_hud_gl_init(view_hud_gl *g, size_t capacity, char *err, size_t err_size)
{
    memset(g, 0, sizeof *g);
    GLuint vs = compile(GL_VERTEX_SHADER, ossa_glsl_hud_vert, err, err_size);
    GLuint fs = vs ? compile(GL_FRAGMENT_SHADER, ossa_glsl_hud_frag, err, err_size) : 0;
    if (!vs || !fs) {
        if (vs)
            glDeleteShader(vs);
        return false;
    }
    g->program = glCreateProgram();
    glAttachShader(g->program, vs);
    glAttachShader(g->program, fs);
    glLinkProgram(g->program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(g->program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[512];
        glGetProgramInfoLog(g->program, sizeof log, NULL, log);
        snprintf(err, err_size, "HUD shaders do not link: %s", log);
        view_hud_gl_free(g);
        return false;
    }
    g->viewport = glGetUniformLocation(g->program, "viewport");
    g->atlas_unit = glGetUniformLocation(g->program, "atlas");

    /* The glyph atlas, filled by view_hud_gl_draw as glyphs are cached. Nearest: glyphs are
     * drawn at whole pixels, one texel a pixel. */
    glGenTextures(1, &g->atlas);
    glBindTexture(GL_TEXTURE_2D, g->atlas);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, VIEW_GLYPHS_SIDE, VIEW_GLYPHS_SIDE, 0, GL_RED,
                 GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);

    g->capacity = capacity;
    glGenVertexArrays(1, &g->vao);
    glGenBuffers(1, &g->buffer);
    glBindVertexArray(g->vao);
    glBindBuffer(GL_ARRAY_BUFFER, g->buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(capacity * sizeof(view_hud_vertex)), NULL,
                 GL_DYNAMIC_DRAW);
    GLsizei stride = sizeof(view_hud_vertex);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride,
                          (const void *)offsetof(view_hud_vertex, x));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride,
                          (const void *)offsetof(view_hud_vertex, u));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                          (const void *)offsetof(view_hud_vertex, rgba));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return true;
}

void view_hud_gl_free(view_hud_gl *g)
{
    if (g->buffer)
        glDeleteBuffers(1, &g->buffer);
    if (g->vao)
        glDeleteVertexArrays(1, &g->vao);
    if (g->atlas)
        glDeleteTextures(1, &g->atlas);
    if (g->program)
        glDeleteProgram(g->program);
    memset(g, 0, sizeof *g);
}

void view_hud_gl_draw(view_hud_gl *g, const view_hud *h, int width, int height)
{
    size_t n = h->count < g->capacity ? h->count : g->capacity;
    if (!n || width <= 0 || height <= 0)
        return;
    glViewport(0, 0, width, height);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(g->program);
    glUniform2f(g->viewport, (float)width, (float)height);
    glUniform1i(g->atlas_unit, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, g->atlas);
    /* Only the atlas rows that new glyphs went into since the last upload. */
    int y0, y1;
    if (h->glyphs && view_glyphs_dirty(h->glyphs, &y0, &y1)) {
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, y0, VIEW_GLYPHS_SIDE, y1 - y0, GL_RED,
                        GL_UNSIGNED_BYTE, h->glyphs->atlas + (size_t)y0 * VIEW_GLYPHS_SIDE);
        view_glyphs_clean(h->glyphs);
    }
    glBindVertexArray(g->vao);
    glBindBuffer(GL_ARRAY_BUFFER, g->buffer);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(n * sizeof(view_hud_vertex)), h->vertices);
    glDrawArrays(GL_TRIANGLES, 0, (GLsizei)n);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
}
