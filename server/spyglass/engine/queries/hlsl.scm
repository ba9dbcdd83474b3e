; Definitions in HLSL, whose grammar extends C++'s: C++'s query (cpp.scm: functions, methods, structs, classes,
; namespaces, function-like macros) is added to this file's. A constant or texture buffer (`cbuffer Scene :
; register(b0) { ... };`) is a struct: the grammar reads one without a register as a function of type `cbuffer`,
; and one with a register as a declaration followed by a block (GrammarSpec.trailing_body), the span running over
; it. Resources (`Texture2D tex : register(t0);`), samplers, prototypes and globals are not definitions.

(function_definition
  type: (type_identifier) @_buffer (#any-of? @_buffer "cbuffer" "tbuffer")
  declarator: (identifier) @name) @definition.struct
(declaration
  type: (type_identifier) @_buffer (#any-of? @_buffer "cbuffer" "tbuffer")
  declarator: (identifier) @name) @definition.struct
