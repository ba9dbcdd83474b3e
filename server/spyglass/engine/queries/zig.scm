; Definitions in Zig. Containers are values bound to names: `const Point = struct {...}` is a struct
; (unions too), `enum {...}` an enum, `error{...}` a type. A function that returns an anonymous struct
; (`fn Ring(comptime T: type) type { return struct {...}; }`) is a generic type: kind struct, so the
; struct's functions are Ring.push. `test "name" {...}` blocks are functions named by their string.

(function_declaration
  name: (identifier) @name
  body: (block (expression_statement (return_expression (struct_declaration))))) @definition.struct
(function_declaration name: (identifier) @name) @definition.function
(test_declaration (string (string_content) @name)) @definition.function
(test_declaration (identifier) @name) @definition.function

(variable_declaration (identifier) @name . (struct_declaration)) @definition.struct
(variable_declaration (identifier) @name . (union_declaration)) @definition.struct
(variable_declaration (identifier) @name . (opaque_declaration)) @definition.struct
(variable_declaration (identifier) @name . (enum_declaration)) @definition.enum
(variable_declaration (identifier) @name . (error_set_declaration)) @definition.type
