; Definitions in Lua. `function M.f()` and `function M:f()` are methods qualified by their table
; (@scope): M.f; a nested table `a.b.c` gives a.b.c. Functions bound to names (`local f = function`)
; are functions too.

(function_declaration name: (identifier) @name) @definition.function
(function_declaration
  name: (dot_index_expression table: (_) @scope field: (identifier) @name)) @definition.method
(function_declaration
  name: (method_index_expression table: (_) @scope method: (identifier) @name)) @definition.method

(variable_declaration
  (assignment_statement
    (variable_list . name: (identifier) @name)
    (expression_list . value: (function_definition)))) @definition.function
(assignment_statement
  (variable_list . name: (identifier) @name)
  (expression_list . value: (function_definition))) @definition.function
(assignment_statement
  (variable_list . name: (dot_index_expression table: (_) @scope field: (identifier) @name))
  (expression_list . value: (function_definition))) @definition.method
