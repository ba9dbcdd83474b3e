; Definitions in OCaml interface files (.mli): what a module exports. A `val` (and an `external`) is a
; function, named by its value or operator (`val ( >>= ) : ...` is >>=), signed by its first line; a
; submodule (`module M : sig ... end`, a functor `module Make (X : S) : S with type t = X.t`, an alias) is
; a module, so its `val`s are M.f; a module type (`module type S = sig ... end`) is an interface whose
; `val`s are S.f; a class is a class and a class type an interface, their methods Class.m. Types are
; types, records structs and variants enums (each binding of `type a = ... and b = ...` apart); an
; exception is a type. An implementation (.ml) is read with these patterns too, after ocaml.scm's: a module
; type's `val`s, a `sig`'s, a file's types and modules are written alike in both.

(compilation_unit (module_definition (module_binding (module_name) @name) @definition.module))
(signature (module_definition (module_binding (module_name) @name) @definition.module))
(module_type_definition (module_type_name) @name) @definition.interface

(class_type_binding (class_type_name) @name) @definition.interface
(class_binding (class_name) @name) @definition.class
(method_specification (method_name) @name) @definition.function

; `type t += A` extends a type defined elsewhere (its name is a path): not a definition of it
(type_binding name: (type_constructor) @name body: (record_declaration)) @definition.struct
(type_binding name: (type_constructor) @name body: (variant_declaration)) @definition.enum
(type_binding name: (type_constructor) @name) @definition.type
(exception_definition (constructor_declaration (constructor_name) @name)) @definition.type

(value_specification (value_name) @name) @definition.function
(value_specification (parenthesized_operator (_) @name)) @definition.function
(external (value_name) @name) @definition.function
(external (parenthesized_operator (_) @name)) @definition.function
