; Definitions in JavaScript (and JSX). `export` wrappers match too, so the span includes the keyword and
; the doc comment above it; the outermost node wins.

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (identifier) @name) @definition.class
(method_definition name: (_) @name) @definition.function

(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function
(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function
(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: (class))) @definition.class

(field_definition
  property: (_) @name
  value: [(arrow_function) (function_expression)]) @definition.function

(export_statement declaration: (function_declaration name: (identifier) @name)) @definition.function
(export_statement declaration: (generator_function_declaration name: (identifier) @name)) @definition.function
(export_statement declaration: (class_declaration name: (identifier) @name)) @definition.class
(export_statement
  declaration: (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]))) @definition.function
