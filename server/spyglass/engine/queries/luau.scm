; Definitions in Luau (Roblox's typed Lua), read as Lua's are (lua.scm, whose patterns follow): `function M.f()` and
; `function M:f()` are methods qualified by their table (M.f), `local function f` and `local f = function` are
; functions, and so are the functions of a top-level table bound to a name or returned by the module. Luau's own:
; a type alias, `type T = ...` and `export type T<U> = ...`, is a type. Not here: `type function` (a type-level
; function, which the grammar does not read) and `declare` (definition files).

(type_definition name: [(identifier) @name (generic_type . (identifier) @name)]) @definition.type


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

; At a file's top level, a function that is a field of a table bound to a name or returned by the module (a
; module table, Kong's handler phases, lazy.nvim's task definitions), also one table deeper:
; `M.log = { skip = function(...)` is M.log.skip, `return { access = { before = function(ctx)` access.before.
; A table made inside a function, or passed to a call, holds options and callbacks
; (`{ callback = function() ... end }`): its fields are no spans.
(chunk (assignment_statement
  (variable_list . name: [(identifier) (dot_index_expression)] @scope)
  (expression_list . value: (table_constructor
    (field name: (identifier) @name value: (function_definition)) @definition.method))))
(chunk (assignment_statement
  (variable_list . name: [(identifier) (dot_index_expression)] @scope)
  (expression_list . value: (table_constructor
    (field name: (identifier) @scope value: (table_constructor
      (field name: (identifier) @name value: (function_definition)) @definition.method))))))
(chunk (variable_declaration (assignment_statement
  (variable_list . name: [(identifier) (dot_index_expression)] @scope)
  (expression_list . value: (table_constructor
    (field name: (identifier) @name value: (function_definition)) @definition.method)))))
(chunk (variable_declaration (assignment_statement
  (variable_list . name: [(identifier) (dot_index_expression)] @scope)
  (expression_list . value: (table_constructor
    (field name: (identifier) @scope value: (table_constructor
      (field name: (identifier) @name value: (function_definition)) @definition.method)))))))
(chunk (return_statement
  (expression_list . (table_constructor
    (field name: (identifier) @name value: (function_definition)) @definition.function))))
(chunk (return_statement
  (expression_list . (table_constructor
    (field name: (identifier) @scope value: (table_constructor
      (field name: (identifier) @name value: (function_definition)) @definition.method))))))

; At a file's top level, a function wrapped by the call whose result is bound to a table's field: telescope's
; `previewers.git_stash_diff = defaulter(function(opts) ... end, {})`, plenary's `M.run = a.wrap(function ...)`,
; `layout_strategies.horizontal = make_documented_layout("horizontal", options, function(self, ...) ...)`.
; Not a call of Lua's or Neovim's own that returns data or nothing (`pcall`, `table.sort`, `vim.tbl_map`,
; `vim.defer_fn`), nor a table indexed by an expression (`routes[name].PUT = ...`).
(chunk (assignment_statement
  (variable_list . name: (dot_index_expression table: [(identifier) (dot_index_expression)] @scope field: (identifier) @name))
  (expression_list . value: (function_call
    name: (_) @_callee
    arguments: (arguments (function_definition))))
  (#not-match? @_callee "^(pcall|xpcall|ipairs|pairs|select|table[.][a-z_]+|string[.][a-z_]+|vim[.]tbl_[a-z_]+|vim[.]defer_fn|vim[.]schedule|vim[.]iter)$")) @definition.method)
