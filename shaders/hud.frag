#version 330 core
// The atlas holds coverage in its red channel: lit font pixels and the solid box cell are 1.
in vec2 v_uv;
in vec4 v_color;
uniform sampler2D atlas;
out vec4 frag_color;
void main()
{
    float coverage = texture(atlas, v_uv).r;
    frag_color = vec4(v_color.rgb, v_color.a * coverage);
}
