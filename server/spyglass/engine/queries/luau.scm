; Definitions in Luau (Roblox's typed Lua). Its grammar names Lua's nodes as tree-sitter-lua does, so Lua's
; patterns (lua.scm, added by languages.py) read it: `function M.f()` and `function M:f()` are methods qualified by
; their table (M.f), `local function f` and `local f = function` are functions, and so are the functions of a
; top-level table bound to a name or returned by the module. Luau's own: a type alias, `type T = ...` and
; `export type T<U> = ...`, is a type. Not here: `type function` (a type-level function, which the grammar does not
; read) and `declare` (definition files).

(type_definition name: [(identifier) @name (generic_type . (identifier) @name)]) @definition.type

; A test, named by its string as Julia's `@testset`s and Zig's `test` blocks are: a call of a test framework's
; `describe`, `it` or `test` (jest-lua, TestEZ), `ctx:Describe`/`ctx:Test`, lute's `test.suite`/`suite:case`, given a
; name and a function; nested ones are `Some.should be none`. The rest of a test file is calls.
(function_call
  name: [(identifier) @_t
         (dot_index_expression field: (identifier) @_t)
         (method_index_expression method: (identifier) @_t)]
  arguments: (arguments . (string (string_content) @name) (function_definition))
  (#any-of? @_t "describe" "it" "test" "Describe" "It" "Test" "suite" "case")) @definition.function
