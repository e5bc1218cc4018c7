/* ossa-view's shader programs (render.h): the embedded GLSL (ossa_glsl.h) compiled with
 * "#version 330 core" and a variant's defines in front, linked, and their uniforms looked up. */
#include "render.h"

#include <glad/gl.h>
#include <stdio.h>

#include "ossa_glsl.h"

/* Our GLSL files carry no #version line: it goes in front here, with the variant's defines. */
static GLuint compile(GLenum kind, const char *defines, const char *source, const char *name,
                      char *err, size_t n)
{
    const char *text[3] = {"#version 330 core\n", defines ? defines : "", source};
    GLuint sh = glCreateShader(kind);
    glShaderSource(sh, 3, text, NULL);
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

/* vs, optional gs (NULL), fs into one program; 0 with a message in err on failure. */
static GLuint link(const char *defines, const char *vs_src, const char *gs_src, const char *fs_src,
                   const char *name, char *err, size_t n)
{
    GLuint sh[3] = {0, 0, 0};
    sh[0] = compile(GL_VERTEX_SHADER, defines, vs_src, name, err, n);
    if (sh[0] && gs_src)
        sh[1] = compile(GL_GEOMETRY_SHADER, defines, gs_src, name, err, n);
    if (sh[0] && (sh[1] || !gs_src))
        sh[2] = compile(GL_FRAGMENT_SHADER, defines, fs_src, name, err, n);
    GLuint prog = 0;
    if (sh[2]) {
        prog = glCreateProgram();
        for (int i = 0; i < 3; i++)
            if (sh[i])
                glAttachShader(prog, sh[i]);
        glLinkProgram(prog);
        GLint ok = 0;
        glGetProgramiv(prog, GL_LINK_STATUS, &ok);
        if (!ok) {
            char log[1024] = "";
            glGetProgramInfoLog(prog, sizeof log, NULL, log);
            snprintf(err, n, "shader %s does not link: %s", name, log);
            glDeleteProgram(prog);
            prog = 0;
        }
    }
    for (int i = 0; i < 3; i++)
        if (sh[i])
            glDeleteShader(sh[i]);
    return prog;
}

bool view_mesh_program_build(view_mesh_program *p, const char *defines, const char *name,
                             char *err, size_t n)
{
    p->id = link(defines, ossa_glsl_mesh_vert, NULL, ossa_glsl_mesh_frag, name, err, n);
    if (!p->id)
        return false;
    p->view_proj = glGetUniformLocation(p->id, "u_view_proj");
    p->diffuse = glGetUniformLocation(p->id, "u_diffuse");
    p->light_dir = glGetUniformLocation(p->id, "u_light_dir");
    p->ambient = glGetUniformLocation(p->id, "u_ambient");
    p->texture = glGetUniformLocation(p->id, "u_texture");
    p->textured = glGetUniformLocation(p->id, "u_textured");
    p->flip_v = glGetUniformLocation(p->id, "u_flip_v");
    p->flat = glGetUniformLocation(p->id, "u_flat");
    glUseProgram(p->id);
    glUniform1i(p->texture, 0);
    glUseProgram(0);
    return true;
}

bool view_line_program_build(view_line_program *p, const char *defines, bool normals,
                             const char *name, char *err, size_t n)
{
    p->id = normals ? link(defines, ossa_glsl_mesh_vert, ossa_glsl_normals_geom,
                           ossa_glsl_lines_frag, name, err, n)
                    : link(defines, ossa_glsl_lines_vert, NULL, ossa_glsl_lines_frag, name, err, n);
    if (!p->id)
        return false;
    p->view_proj = glGetUniformLocation(p->id, "u_view_proj");
    p->color = glGetUniformLocation(p->id, "u_color");
    p->length = glGetUniformLocation(p->id, "u_length");
    return true;
}

void view_program_bind_palette(unsigned program, unsigned binding)
{
    GLuint block = glGetUniformBlockIndex(program, "Palette");
    if (block != GL_INVALID_INDEX)
        glUniformBlockBinding(program, block, binding);
}
