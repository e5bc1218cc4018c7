#version 330 core
// HUD and text: window pixels (y down) to clip space; the font atlas coordinate and a colour.
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 uv;
layout(location = 2) in vec4 color;
uniform vec2 viewport;
out vec2 v_uv;
out vec4 v_color;
void main()
{
    gl_Position = vec4(position.x / viewport.x * 2.0 - 1.0, 1.0 - position.y / viewport.y * 2.0,
                       0.0, 1.0);
    v_uv = uv;
    v_color = color;
}
