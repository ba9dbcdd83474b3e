; Definitions in Starlark (Bazel's .bzl, BUILD, WORKSPACE and MODULE.bazel files; .star). A `def` is a function
; (a rule's implementation, a macro, a helper), with its docstring as in Python. What a file exports by binding a
; top-level name to a call of Bazel's is named by that name, as users load and call it: a rule, a symbolic macro,
; a repository rule, an aspect, a module extension, a tag class, a subrule or a transition is a function
; (`go_binary = rule(implementation = _go_binary_impl, ...)`), a provider is a type (`GoInfo = provider(...)`); the
; string of its `doc = "..."` argument is its doc. A target or a repository, a top-level call with a `name = "..."`
; argument (`go_library(name = "lib", ...)` in a BUILD file, `http_archive(name = ...)`, `bazel_dep(name = ...)`),
; is a section named by that string: labels name it (`//pkg:lib`), and a BUILD file is read a target at a time.
; Other top-level bindings (constants, `paths = struct(basename = _basename, ...)`) are not definitions.

(module . (comment)* . (expression_statement (string) @doc))

(function_definition name: (identifier) @name) @definition.function
(function_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc))) @definition.function

(module
  (expression_statement
    (assignment
      left: (identifier) @name
      right: (call
        function: (identifier) @_f
        arguments: (argument_list
          (keyword_argument name: (identifier) @_doc value: (string) @doc (#eq? @_doc "doc"))?))
      (#any-of? @_f "rule" "macro" "repository_rule" "aspect" "module_extension" "tag_class" "subrule"
                    "transition" "analysis_test_transition"))) @definition.function)

(module
  (expression_statement
    (assignment
      left: (identifier) @name
      right: (call
        function: (identifier) @_f
        arguments: (argument_list
          (keyword_argument name: (identifier) @_doc value: (string) @doc (#eq? @_doc "doc"))?))
      (#eq? @_f "provider"))) @definition.type)

(module
  (expression_statement
    (call
      arguments: (argument_list
        (keyword_argument name: (identifier) @_n value: (string (string_content) @name) (#eq? @_n "name"))))) @definition.section)
