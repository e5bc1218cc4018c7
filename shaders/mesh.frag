// One directional light plus ambient over the material's diffuse colour, times its texture when
// it has one. Lit on both sides: legacy meshes do not agree on winding. u_flat draws u_diffuse
// unlit (the wireframe pass). render.c puts "#version 330 core" in front.
in vec3 v_position;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_diffuse;
uniform vec3 u_light_dir;   // towards the light, model space, normalised
uniform float u_ambient;
uniform sampler2D u_texture;
uniform bool u_textured;
uniform bool u_flip_v;      // UV origin at the image's bottom (OpenGL, Cal3D) rather than top
uniform bool u_flat;

out vec4 frag_color;

void main()
{
    if (u_flat) {
        frag_color = vec4(u_diffuse, 1.0);
        return;
    }
    vec3 base = u_diffuse;
    if (u_textured)
        base *= texture(u_texture, vec2(v_uv.x, u_flip_v ? 1.0 - v_uv.y : v_uv.y)).rgb;
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing)
        n = -n;
    float lambert = max(dot(n, u_light_dir), 0.0);
    frag_color = vec4(base * (u_ambient + (1.0 - u_ambient) * lambert), 1.0);
}
