; Definitions in Go. A method's receiver type is captured as @scope, giving the qualname Recv.Method.
; A `type X ...` declaration with a single spec is the span (keyword and doc comment included);
; specs in a grouped `type ( ... )` are spans of their own.

(function_declaration name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @scope
             (pointer_type (type_identifier) @scope)
             (generic_type type: (type_identifier) @scope)
             (pointer_type (generic_type type: (type_identifier) @scope))]))
  name: (field_identifier) @name) @definition.method

(type_declaration . (type_spec name: (type_identifier) @name type: (struct_type)) .) @definition.struct
(type_declaration . (type_spec name: (type_identifier) @name type: (interface_type)) .) @definition.interface
(type_declaration . (type_spec name: (type_identifier) @name) .) @definition.type
(type_declaration . (type_alias name: (type_identifier) @name) .) @definition.type

(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type

; A package-level variable bound to a function literal is a function (gin's `var defaultLogFormatter = func(
; param LogFormatterParams) string {`), as an arrow function bound to a name is in TypeScript; one spec in a
; grouped `var ( ... )` is a span of its own. A variable inside a function holds a closure, not a definition.
(source_file
  (var_declaration . (var_spec . name: (identifier) @name value: (expression_list . (func_literal) .)) .) @definition.function
  (#not-eq? @name "_"))
(source_file
  (var_declaration (var_spec_list
    (var_spec . name: (identifier) @name value: (expression_list . (func_literal) .)) @definition.function))
  (#not-eq? @name "_"))
