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

; A type alias is a definition, as in TypeScript, Go or Kotlin: `type Point[T] = tuple[T, T]` (PEP 695),
; `JsonValue: TypeAlias = Union[...]` (PEP 613, also `typing.TypeAlias`), and at a module's top level a name bound
; to what only a type can be (`StrOrBytes = Union[str, bytes]`, `Mode = Literal["r", "w"]`: PEP 484's implicit
; alias: the form named bare or from `typing`, `typing_extensions` or their usual short names `t` and `te`);
; a string right below one (past a comment on the alias's line) is its doc (an attribute docstring, which Sphinx and
; pydantic's docs read).
((type_alias_statement
  left: (type [(identifier) @name (generic_type . (identifier) @name)])) @definition.type
  .
  (comment)?
  .
  (expression_statement . (string) @doc .)?)

((expression_statement
  (assignment
    left: (identifier) @name
    type: (type [(identifier) @_alias (attribute attribute: (identifier) @_alias)])
    (#eq? @_alias "TypeAlias"))) @definition.type
  .
  (comment)?
  .
  (expression_statement . (string) @doc .)?)

(module
  (expression_statement
    (assignment
      left: (identifier) @name
      !type
      right: (subscript
        value: [(identifier) @_form
                (attribute
                  object: (identifier) @_typing (#any-of? @_typing "typing" "typing_extensions" "t" "te")
                  attribute: (identifier) @_form)])
      (#any-of? @_form "Union" "Optional" "Literal" "Callable" "Annotated"))) @definition.type
  .
  (comment)?
  .
  (expression_statement . (string) @doc .)?)
