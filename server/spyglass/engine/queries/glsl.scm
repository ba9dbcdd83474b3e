; Definitions in GLSL, whose grammar extends C's: C's query (c.scm: functions, structs, function-like macros) is
; added to this file's. An interface block (`layout(std140) uniform Camera { mat4 view; } camera;`, a `buffer`,
; an `in`/`out` block) is a struct named by its block name, not by its instance. Prototypes, uniforms, inputs and
; outputs are declarations of one line, not definitions.

(declaration (identifier) @name . (field_declaration_list)) @definition.struct
