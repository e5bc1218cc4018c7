// Normals overlay: each mesh vertex (drawn as a point through mesh.vert, so CPU- and GPU-skinned
// vertices alike) becomes a line of length u_length along its normal. Padding and degenerate
// vertices have a zero normal and give no line. render.c puts "#version 330 core" in front.
layout(points) in;
layout(line_strip, max_vertices = 2) out;

in vec3 v_position[];
in vec3 v_normal[];

uniform mat4 u_view_proj;
uniform float u_length;

void main()
{
    vec3 n = v_normal[0];
    float len2 = dot(n, n);
    if (!(len2 > 0.0))
        return;
    vec3 p = v_position[0];
    gl_Position = u_view_proj * vec4(p, 1.0);
    EmitVertex();
    gl_Position = u_view_proj * vec4(p + u_length * inversesqrt(len2) * n, 1.0);
    EmitVertex();
    EndPrimitive();
}
