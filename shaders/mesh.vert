// Mesh vertices. render.c compiles this with "#version 330 core" and its defines in front.
// Without OSSA_GPU_SKINNING, positions and normals arrive skinned by the CPU (or in the bind pose).
// With it they are bind vertices, blended here over up to 8 influences against a palette of 3x4
// matrices (three vec4 rows per bone, as ossa_skin_palette writes them) the same way the engine's
// CPU kernels blend: sum w (M p + T), sum w M n renormalised, weights as stored. Submeshes whose
// influences carry their own points (C3S, SKM: v = sum P [u; w]) add each influence's gap from
// the bind vertex, M (u - w p); the gaps are zero for every other submesh. OSSA_CROWD adds a
// character's place (u_offset); OSSA_CROWD_INSTANCED reads place and palette per gl_InstanceID
// from a texture buffer instead of the uniform block; OSSA_CROWD_PLACES reads the place of a
// CPU-skinned character from a texture buffer, by vertex or by instance. OSSA_SKIN_LITE is for
// submeshes of at most 4 influences a vertex and no gaps: it reads neither the second group nor
// the gaps (a third of the work, which GPUs with few graphics units are bound by).
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
#ifdef OSSA_GPU_SKINNING
layout(location = 3) in uvec4 a_bones0;
layout(location = 4) in uvec4 a_bones1;
layout(location = 5) in vec4 a_weights0;
layout(location = 6) in vec4 a_weights1;
layout(location = 7) in vec3 a_gap0;
layout(location = 8) in vec3 a_gap1;
layout(location = 9) in vec3 a_gap2;
layout(location = 10) in vec3 a_gap3;
layout(location = 11) in vec3 a_gap4;
layout(location = 12) in vec3 a_gap5;
layout(location = 13) in vec3 a_gap6;
layout(location = 14) in vec3 a_gap7;

#ifdef OSSA_CROWD_INSTANCED
// A crowd in one instanced draw: per instance its offset, then 3 rows a bone (render_crowd.c).
uniform samplerBuffer u_palettes;
uniform int u_instance_stride;  // texels per instance
int instance_base() { return gl_InstanceID * u_instance_stride; }
vec4 palette_row(int r) { return texelFetch(u_palettes, instance_base() + 1 + r); }
#else
layout(std140) uniform Palette {
    vec4 u_rows[OSSA_PALETTE_ROWS];
};
vec4 palette_row(int r) { return u_rows[r]; }
#endif
#endif
#ifdef OSSA_CROWD
uniform vec3 u_offset;  // a crowd drawn a character at a time: this one's place
#endif
#ifdef OSSA_CROWD_PLACES
// Every character's place, one texel each. Skinned characters lie one after another in the
// vertex buffers, u_character_vertices apart, and gl_VertexID counts the draw's base vertex, so
// the vertex names its character; with 0, the draw is instanced (the bind pose) and the
// instance does. UVs come by the vertex's place within its character (a_uv is not read).
uniform samplerBuffer u_places;
uniform samplerBuffer u_uvs;
uniform int u_character_vertices;
#endif

uniform mat4 u_view_proj;

out vec3 v_position;  // model space, for the normals overlay
out vec3 v_normal;
out vec2 v_uv;

#ifdef OSSA_GPU_SKINNING
void blend(uint bone, float w, vec3 gap, inout vec3 p, inout vec3 n)
{
    int r = 3 * int(bone);
    vec4 x = palette_row(r), y = palette_row(r + 1), z = palette_row(r + 2);
    p += w * vec3(dot(x.xyz, a_position) + x.w, dot(y.xyz, a_position) + y.w,
                  dot(z.xyz, a_position) + z.w);
#ifndef OSSA_SKIN_LITE
    p += vec3(dot(x.xyz, gap), dot(y.xyz, gap), dot(z.xyz, gap));
#endif
    n += w * vec3(dot(x.xyz, a_normal), dot(y.xyz, a_normal), dot(z.xyz, a_normal));
}
#endif

void main()
{
    vec3 p = a_position;
    vec3 n = a_normal;
#ifdef OSSA_GPU_SKINNING
    // 0xffff in the first slot: no influences (or padding), the bind vertex stays.
    if (a_bones0.x != 0xffffu) {
        p = vec3(0.0);
        n = vec3(0.0);
        blend(a_bones0.x, a_weights0.x, a_gap0, p, n);
        blend(a_bones0.y, a_weights0.y, a_gap1, p, n);
        blend(a_bones0.z, a_weights0.z, a_gap2, p, n);
        blend(a_bones0.w, a_weights0.w, a_gap3, p, n);
#ifndef OSSA_SKIN_LITE
        blend(a_bones1.x, a_weights1.x, a_gap4, p, n);
        blend(a_bones1.y, a_weights1.y, a_gap5, p, n);
        blend(a_bones1.z, a_weights1.z, a_gap6, p, n);
        blend(a_bones1.w, a_weights1.w, a_gap7, p, n);
#endif
    }
    if (dot(n, n) > 0.0)
        n = normalize(n);
#endif
    v_position = p;
    v_normal = n;
    v_uv = a_uv;
#if defined(OSSA_CROWD_INSTANCED)
    p += texelFetch(u_palettes, instance_base()).xyz;
#elif defined(OSSA_CROWD)
    p += u_offset;
#elif defined(OSSA_CROWD_PLACES)
    int per = u_character_vertices;
    int character = per > 0 ? gl_VertexID / per : gl_InstanceID;
    v_uv = texelFetch(u_uvs, per > 0 ? gl_VertexID - character * per : gl_VertexID).xy;
    p += texelFetch(u_places, character).xyz;
#endif
    gl_Position = u_view_proj * vec4(p, 1.0);
}
