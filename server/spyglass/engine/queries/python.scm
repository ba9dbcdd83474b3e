; Definitions in Python. Captures: @definition.<kind> on the node, @name on its name, @doc on a docstring.
; A decorated definition matches twice (with and without its decorators); the outermost node wins.

(module . (comment)* . (expression_statement (string) @doc))

(function_definition
  name: (identifier) @name) @definition.function

(function_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc))) @definition.function

(class_definition
  name: (identifier) @name) @definition.class

(class_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc))) @definition.class

(decorated_definition
  definition: (function_definition name: (identifier) @name)) @definition.function

(decorated_definition
  definition: (class_definition name: (identifier) @name)) @definition.class
