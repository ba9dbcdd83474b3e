; Definitions in GDScript (Godot). A script is a class, but one without a node of its own (its `class_name` is a
; statement): its `func`s, `static func`s and the constructor `_init` are functions, named as written; an inner
; `class` is a class, so what it holds is qualified by it (`Stack.push`, `Stack.Inner.f`). A named `enum` is an
; enum; a `signal` is a type (a declaration without a body, named where it is emitted and connected, as
; Solidity's events). Variables, constants, an unnamed `enum` and lambdas are not definitions. The `##` comment
; lines right above a definition are its doc (Godot's documentation comments); annotations above one (`@rpc`,
; `@export`) are in its span.

(class_definition name: (name) @name) @definition.class
(enum_definition name: (name) @name) @definition.enum
(signal_statement name: (name) @name) @definition.type
(function_definition name: (name) @name) @definition.function
; the constructor has no name node: it is named by its keyword
(constructor_definition "_init" @name) @definition.function
