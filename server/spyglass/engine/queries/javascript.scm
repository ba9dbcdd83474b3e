; Definitions in JavaScript (and JSX). `export` wrappers match too, so the span includes the keyword and
; the doc comment above it; the outermost node wins.

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (identifier) @name) @definition.class
(method_definition name: (_) @name) @definition.function

; a function bound to a name, also in parentheses (got's ``const paginateEach = (async function * () {``)
(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)
            (parenthesized_expression [(arrow_function) (function_expression) (generator_function)])])) @definition.function
(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)
            (parenthesized_expression [(arrow_function) (function_expression) (generator_function)])])) @definition.function
(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: (class))) @definition.class

(field_definition
  property: (_) @name
  value: [(arrow_function) (function_expression)]) @definition.function

; a function with a body assigned to a property: a method defined by assignment (``app.use = function
; use(fn) {``, ``Foo.prototype.bar = function () {``, zod's ``inst.check = (...checks) => {``); a one-expression
; arrow (``inst.min = (value) => inst.check(_gte(value))``) stays a line of the code around it
(expression_statement
  (assignment_expression
    left: (member_expression property: (property_identifier) @name)
    right: [(arrow_function body: (statement_block)) (function_expression) (generator_function)])) @definition.function

(export_statement declaration: (function_declaration name: (identifier) @name)) @definition.function
(export_statement declaration: (generator_function_declaration name: (identifier) @name)) @definition.function
(export_statement declaration: (class_declaration name: (identifier) @name)) @definition.class
(export_statement
  declaration: (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]))) @definition.function
