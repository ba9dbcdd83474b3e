; Definitions in free-form Fortran. A module and a submodule are modules, so the procedures after their
; `contains` are qualified by them (`geometry.distance`); a program, a subroutine, a function and a separate
; module procedure (`module procedure f` in a submodule) are functions, and the procedures a program or a
; procedure `contains` are qualified by it. A derived type (`type, extends(shape) :: circle`) is a struct; its
; type-bound procedures are bindings to module procedures (`procedure :: area => circle_area`), not definitions.
; A named interface (a generic name, `interface area`) is an interface; an unnamed one (`abstract interface`,
; an interface block for external procedures) is no definition, so the procedures it declares are functions of
; the module. Names are on the opening statement (the `end` statement repeats them).

(module (module_statement (name) @name)) @definition.module
(submodule (submodule_statement (name) @name)) @definition.module
(program (program_statement (name) @name)) @definition.function

(derived_type_definition (derived_type_statement (type_name) @name)) @definition.struct
(interface (interface_statement (name) @name)) @definition.interface
; a generic operator or assignment is named as written (`operator(+)`, `operator(.in.)`, `assignment(=)`)
(interface (interface_statement [(operator) (assignment)] @name)) @definition.interface

(subroutine (subroutine_statement name: (name) @name)) @definition.function
(function (function_statement name: (name) @name)) @definition.function
(module_procedure (module_procedure_statement name: (name) @name)) @definition.function
