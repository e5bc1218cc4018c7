// Bone overlay and ground grid: plain coloured lines in model space. render.c puts
// "#version 330 core" in front.
layout(location = 0) in vec3 a_position;

uniform mat4 u_view_proj;

void main()
{
    gl_Position = u_view_proj * vec4(a_position, 1.0);
}
