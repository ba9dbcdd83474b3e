; Definitions in Ada. A package (spec or body, generic or not) is a module, so what it holds is qualified by it
; (`Shop.Shapes.Area`); a task and a protected type (or body) are classes, so their entries and subprograms are
; methods. A subprogram is a function, whether declared in a spec (`function Area (S : Shape) return Float;`, a
; declaration without a body), implemented in a body, written as an expression function, a null procedure, a stub
; (`is separate`) or a renaming. A record is a struct, a tagged record or a type extension (`new Shape with record`)
; a class, an interface type an interface, an enumeration an enum, and other types and subtypes are types.
; Generic instantiations, objects and constants are no definitions.

(package_declaration name: (_) @name) @definition.module
(package_body name: (_) @name) @definition.module

(full_type_declaration (task_type_declaration (identifier) @name)) @definition.class
(full_type_declaration (protected_type_declaration (identifier) @name)) @definition.class
(single_task_declaration (identifier) @name) @definition.class
(single_protected_declaration (identifier) @name) @definition.class
(task_body . (identifier) @name) @definition.class
(protected_body . (identifier) @name) @definition.class

(full_type_declaration . (identifier) @name (record_type_definition "tagged")) @definition.class
(full_type_declaration . (identifier) @name (derived_type_definition (record_extension_part))) @definition.class
(full_type_declaration . (identifier) @name (record_type_definition)) @definition.struct
(full_type_declaration . (identifier) @name (interface_type_definition)) @definition.interface
(full_type_declaration . (identifier) @name (enumeration_type_definition)) @definition.enum
(full_type_declaration . (identifier) @name) @definition.type
(private_type_declaration . (identifier) @name) @definition.type
(private_extension_declaration . (identifier) @name) @definition.type
(subtype_declaration . (identifier) @name) @definition.type

; a generic subprogram is named by its specification, whose span starts at its `generic` formal part
(generic_subprogram_declaration [(procedure_specification name: (_) @name) (function_specification name: (_) @name)] @definition.function)
(subprogram_declaration [(procedure_specification name: (_) @name) (function_specification name: (_) @name)]) @definition.function
(subprogram_body [(procedure_specification name: (_) @name) (function_specification name: (_) @name)]) @definition.function
(expression_function_declaration (function_specification name: (_) @name)) @definition.function
(null_procedure_declaration (procedure_specification name: (_) @name)) @definition.function
(subprogram_body_stub [(procedure_specification name: (_) @name) (function_specification name: (_) @name)]) @definition.function
(subprogram_renaming_declaration [(procedure_specification name: (_) @name) (function_specification name: (_) @name)]) @definition.function
(entry_declaration . (identifier) @name) @definition.function
(entry_body . (identifier) @name) @definition.function
