#version 330 core
// One directional light plus ambient over the material's diffuse colour. Lit on both sides:
// legacy meshes do not agree on winding.
in vec3 v_normal;

uniform vec3 u_diffuse;
uniform vec3 u_light_dir;   // towards the light, model space, normalised
uniform float u_ambient;

out vec4 frag_color;

void main()
{
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing)
        n = -n;
    float lambert = max(dot(n, u_light_dir), 0.0);
    vec3 color = u_diffuse * (u_ambient + (1.0 - u_ambient) * lambert);
    frag_color = vec4(color, 1.0);
}
