; Definitions in Julia. `function f(...) ... end` (anywhere, also a named closure in a body) and `macro m(...)`
; are functions; so is the short form `f(x) = ...` at a file's or module's top level and in a struct (an inner
; constructor, Bar.Bar), not a local one-liner in a body or a `@testset` block. A function is named by its
; callee: `f`, `Foo{T}`'s `Foo`, `Base.show` as `show` with @scope `Base` (the module whose function it
; extends), an operator `Base.:(==)` as `==`, a functor `(m::Dense)(x)` after the type it makes callable
; (`Dense`); `f(x)::T`, `f(x) where {T}` and both are read through. struct and mutable struct are structs;
; abstract and primitive types are types; `@enum E a b` is an enum; `module`/`baremodule` is a module, so its
; functions are M.f. A macro call around a definition (`@inline`, `@generated`, `Base.@kwdef`) is in its span,
; like a decorator. A string literal right above a definition (or above the macro call around it) is its
; docstring, as Julia's `@doc` reads it; so is the string of an `@doc` call on the line before one (Flux's
; `@doc raw"""..."""` above `struct RNNCell`: the parser takes the next line as the call's argument, the
; grammar does not), from which only the text between the quotes is kept.

([(string_literal) @doc
   (macrocall_expression (macro_identifier . (identifier) @_doc (#eq? @_doc "doc"))
                         (macro_argument_list . [(string_literal) @doc (prefixed_string_literal (content) @doc)] .))]?
  .
  (module_definition name: (identifier) @name) @definition.module)

([(string_literal) @doc
   (macrocall_expression (macro_identifier . (identifier) @_doc (#eq? @_doc "doc"))
                         (macro_argument_list . [(string_literal) @doc (prefixed_string_literal (content) @doc)] .))]?
  .
  [(struct_definition (type_head . [(identifier) @name
                                    (parametrized_type_expression . (identifier) @name)
                                    (binary_expression . [(identifier) @name
                                                          (parametrized_type_expression . (identifier) @name)])]))
   (macrocall_expression (macro_argument_list . (struct_definition (type_head . [
     (identifier) @name
     (parametrized_type_expression . (identifier) @name)
     (binary_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])]))))
  ] @definition.struct)

([(string_literal) @doc
   (macrocall_expression (macro_identifier . (identifier) @_doc (#eq? @_doc "doc"))
                         (macro_argument_list . [(string_literal) @doc (prefixed_string_literal (content) @doc)] .))]?
  .
  [(abstract_definition (type_head . [(identifier) @name
                                      (parametrized_type_expression . (identifier) @name)
                                      (binary_expression . [(identifier) @name
                                                            (parametrized_type_expression . (identifier) @name)])]))
   (primitive_definition (type_head . [(identifier) @name
                                       (binary_expression . (identifier) @name)]))
  ] @definition.type)

([(string_literal) @doc
   (macrocall_expression (macro_identifier . (identifier) @_doc (#eq? @_doc "doc"))
                         (macro_argument_list . [(string_literal) @doc (prefixed_string_literal (content) @doc)] .))]?
  .
  (macrocall_expression
    (macro_identifier (identifier) @_m (#eq? @_m "enum"))
    (macro_argument_list . [(identifier) @name (typed_expression . (identifier) @name)])) @definition.enum)

([(string_literal) @doc
   (macrocall_expression (macro_identifier . (identifier) @_doc (#eq? @_doc "doc"))
                         (macro_argument_list . [(string_literal) @doc (prefixed_string_literal (content) @doc)] .))]?
  .
  (macro_definition (signature . (call_expression . (identifier) @name))) @definition.function)

; `function` and a macro call around it: the callee is the signature's first node, or the first inside a return
; type or `where` (`f(x)::T where {T}`: both). The callee block (a name, an operator, `Foo{T}`, `M.f`, `M.:op`,
; `(x::T)`, `(::T)`) is repeated in each pattern below: a query has no named sub-patterns, and every match of a
; definition must reach the same @name node for its doc and its macro call to join it.
([(string_literal) @doc
   (macrocall_expression (macro_identifier . (identifier) @_doc (#eq? @_doc "doc"))
                         (macro_argument_list . [(string_literal) @doc (prefixed_string_literal (content) @doc)] .))]?
  .
  [(function_definition
     (signature . [
       (identifier) @name
       (call_expression . [(identifier) @name (operator) @name (parametrized_type_expression . (identifier) @name)
         (field_expression value: (_) @scope . [(identifier) @name
                                                (quote_expression [(operator) @name (parenthesized_expression (operator) @name)])] .)
         (parenthesized_expression [(typed_expression (_) . [(identifier) @name (parametrized_type_expression . (identifier) @name)] .)
                                    (unary_typed_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])])
       (_ . (call_expression . [(identifier) @name (operator) @name (parametrized_type_expression . (identifier) @name)
         (field_expression value: (_) @scope . [(identifier) @name
                                                (quote_expression [(operator) @name (parenthesized_expression (operator) @name)])] .)
         (parenthesized_expression [(typed_expression (_) . [(identifier) @name (parametrized_type_expression . (identifier) @name)] .)
                                    (unary_typed_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])]))
       (_ . (_ . (call_expression . [(identifier) @name (operator) @name (parametrized_type_expression . (identifier) @name)
         (field_expression value: (_) @scope . [(identifier) @name
                                                (quote_expression [(operator) @name (parenthesized_expression (operator) @name)])] .)
         (parenthesized_expression [(typed_expression (_) . [(identifier) @name (parametrized_type_expression . (identifier) @name)] .)
                                    (unary_typed_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])])))]))
   (macrocall_expression (macro_argument_list . (function_definition
     (signature . [
       (identifier) @name
       (call_expression . [(identifier) @name (operator) @name (parametrized_type_expression . (identifier) @name)
         (field_expression value: (_) @scope . [(identifier) @name
                                                (quote_expression [(operator) @name (parenthesized_expression (operator) @name)])] .)
         (parenthesized_expression [(typed_expression (_) . [(identifier) @name (parametrized_type_expression . (identifier) @name)] .)
                                    (unary_typed_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])])
       (_ . (call_expression . [(identifier) @name (operator) @name (parametrized_type_expression . (identifier) @name)
         (field_expression value: (_) @scope . [(identifier) @name
                                                (quote_expression [(operator) @name (parenthesized_expression (operator) @name)])] .)
         (parenthesized_expression [(typed_expression (_) . [(identifier) @name (parametrized_type_expression . (identifier) @name)] .)
                                    (unary_typed_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])]))
       (_ . (_ . (call_expression . [(identifier) @name (operator) @name (parametrized_type_expression . (identifier) @name)
         (field_expression value: (_) @scope . [(identifier) @name
                                                (quote_expression [(operator) @name (parenthesized_expression (operator) @name)])] .)
         (parenthesized_expression [(typed_expression (_) . [(identifier) @name (parametrized_type_expression . (identifier) @name)] .)
                                    (unary_typed_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])])))]))))
  ] @definition.function)

; the short form `f(x) = ...` (also `f(x) where {T} = ...`) at a file's or module's top level; a docstring above
; one is matched apart (an optional sibling before a child of a given parent loses later matches in
; tree-sitter 0.26: after a string not above a definition, none below it matched)
(source_file
  (assignment . [
    (call_expression . [(identifier) @name (operator) @name (parametrized_type_expression . (identifier) @name)
      (field_expression value: (_) @scope . [(identifier) @name
                                             (quote_expression [(operator) @name (parenthesized_expression (operator) @name)])] .)
      (parenthesized_expression [(typed_expression (_) . [(identifier) @name (parametrized_type_expression . (identifier) @name)] .)
                                 (unary_typed_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])])
    (where_expression . (call_expression . [(identifier) @name (operator) @name (parametrized_type_expression . (identifier) @name)
      (field_expression value: (_) @scope . [(identifier) @name
                                             (quote_expression [(operator) @name (parenthesized_expression (operator) @name)])] .)
      (parenthesized_expression [(typed_expression (_) . [(identifier) @name (parametrized_type_expression . (identifier) @name)] .)
                                 (unary_typed_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])]))]) @definition.function)
(module_definition
  (assignment . [
    (call_expression . [(identifier) @name (operator) @name (parametrized_type_expression . (identifier) @name)
      (field_expression value: (_) @scope . [(identifier) @name
                                             (quote_expression [(operator) @name (parenthesized_expression (operator) @name)])] .)
      (parenthesized_expression [(typed_expression (_) . [(identifier) @name (parametrized_type_expression . (identifier) @name)] .)
                                 (unary_typed_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])])
    (where_expression . (call_expression . [(identifier) @name (operator) @name (parametrized_type_expression . (identifier) @name)
      (field_expression value: (_) @scope . [(identifier) @name
                                             (quote_expression [(operator) @name (parenthesized_expression (operator) @name)])] .)
      (parenthesized_expression [(typed_expression (_) . [(identifier) @name (parametrized_type_expression . (identifier) @name)] .)
                                 (unary_typed_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])]))]) @definition.function)
([(string_literal) @doc
   (macrocall_expression (macro_identifier . (identifier) @_doc (#eq? @_doc "doc"))
                         (macro_argument_list . [(string_literal) @doc (prefixed_string_literal (content) @doc)] .))]
  .
  (assignment . [
    (call_expression . [(identifier) @name (operator) @name (parametrized_type_expression . (identifier) @name)
      (field_expression value: (_) @scope . [(identifier) @name
                                             (quote_expression [(operator) @name (parenthesized_expression (operator) @name)])] .)
      (parenthesized_expression [(typed_expression (_) . [(identifier) @name (parametrized_type_expression . (identifier) @name)] .)
                                 (unary_typed_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])])
    (where_expression . (call_expression . [(identifier) @name (operator) @name (parametrized_type_expression . (identifier) @name)
      (field_expression value: (_) @scope . [(identifier) @name
                                             (quote_expression [(operator) @name (parenthesized_expression (operator) @name)])] .)
      (parenthesized_expression [(typed_expression (_) . [(identifier) @name (parametrized_type_expression . (identifier) @name)] .)
                                 (unary_typed_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])]))]) @definition.function)

; the short form in a macro call (`@inline f(x) = ...`; `@eval` defines it globally wherever it is written)
([(string_literal) @doc
   (macrocall_expression (macro_identifier . (identifier) @_doc (#eq? @_doc "doc"))
                         (macro_argument_list . [(string_literal) @doc (prefixed_string_literal (content) @doc)] .))]?
  .
  (macrocall_expression (macro_argument_list . (assignment . [
      (call_expression . [(identifier) @name (operator) @name (parametrized_type_expression . (identifier) @name)
        (field_expression value: (_) @scope . [(identifier) @name
                                               (quote_expression [(operator) @name (parenthesized_expression (operator) @name)])] .)
        (parenthesized_expression [(typed_expression (_) . [(identifier) @name (parametrized_type_expression . (identifier) @name)] .)
                                   (unary_typed_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])])
      (where_expression . (call_expression . [(identifier) @name (operator) @name (parametrized_type_expression . (identifier) @name)
        (field_expression value: (_) @scope . [(identifier) @name
                                               (quote_expression [(operator) @name (parenthesized_expression (operator) @name)])] .)
        (parenthesized_expression [(typed_expression (_) . [(identifier) @name (parametrized_type_expression . (identifier) @name)] .)
                                   (unary_typed_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])]))]))) @definition.function)

; an inner constructor, short form (the long form is a `function` above): `Bar(x) = new(x)`, `Bar{T}(x) where T = ...`
(struct_definition
  (assignment . [(call_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])
                 (where_expression . (call_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)]))]
  ) @definition.function)

; a test set, `@testset "Dense" begin ... end` (or `... for x in xs`), named by its string as Zig's test blocks are:
; nested ones are Dense.bias; the rest of a test file is calls
(macrocall_expression
  (macro_identifier . (identifier) @_t (#eq? @_t "testset"))
  (macro_argument_list . (string_literal) @name)) @definition.function
