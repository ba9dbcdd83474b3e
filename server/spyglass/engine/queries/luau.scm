; Definitions in Luau (Roblox's typed Lua). Its grammar names Lua's nodes as tree-sitter-lua does, so Lua's
; patterns (lua.scm, added by languages.py) read it: `function M.f()` and `function M:f()` are methods qualified by
; their table (M.f), `local function f` and `local f = function` are functions, and so are the functions of a
; top-level table bound to a name or returned by the module. Luau's own: a type alias, `type T = ...` and
; `export type T<U> = ...`, is a type. Not here: `type function` (a type-level function, which the grammar does not
; read) and `declare` (definition files).

(type_definition name: [(identifier) @name (generic_type . (identifier) @name)]) @definition.type
