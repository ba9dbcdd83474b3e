; Definitions in VHDL. An entity and an architecture are classes (a design unit: ports and the logic behind them),
; an architecture named by itself and qualified by its entity (`architecture rtl of uart` is `uart.rtl`), so the
; functions and procedures it declares are its methods; a package and a package body are modules, so what they
; declare is qualified by the package (`util.max`). A function and a procedure are functions, with or without a
; body (a package declares them, its body defines them); a component declaration (an entity's ports, declared to
; instantiate it) is an interface. A protected type and its body are classes (VHDL-2008's objects: OSVVM's
; `ScoreboardPType.Push`), a record type is a struct, an enumeration type an enum. Processes, blocks,
; generate statements, signals, constants and instances are not definitions (a process's label is optional and
; local; an instance is a use).

(entity_declaration entity: (_) @name) @definition.class
(architecture_definition architecture: (_) @name entity: (_) @scope) @definition.class
(package_declaration package: (_) @name) @definition.module
(package_definition package: (_) @name) @definition.module
(component_declaration component: (_) @name) @definition.interface

(subprogram_definition [(function_specification function: (_) @name)
                        (procedure_specification procedure: (_) @name)]) @definition.function
(subprogram_declaration [(function_specification function: (_) @name)
                         (procedure_specification procedure: (_) @name)]) @definition.function

(type_declaration type: (_) @name [(protected_type_declaration) (protected_type_body)]) @definition.class
(type_declaration type: (_) @name (record_type_definition)) @definition.struct
(type_declaration type: (_) @name (enumeration_type_definition)) @definition.enum
