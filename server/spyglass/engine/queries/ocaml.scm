; Definitions in OCaml implementation files (.ml). A module (`module M = struct ... end`, a functor
; `module Make (X : S) = struct`, an alias `module M = N`) is a module, so its values are M.f; a module
; type (`module type S = sig ... end`) is an interface whose `val`s are S.f; a class is a class whose
; methods are Class.m, a class type an interface. Types are types, records structs and variants enums
; (each binding of `type a = ... and b = ...` apart); an exception and an `external` are spans too.
;
; A value is a binding of a name by a `let` at the top of a file or of a structure (`let rec f x =`, each
; `and`, `let ( >>= ) m f =`, `let (x : t) =`), never a `let ... in` inside an expression. Every such value
; is a span, not only the ones with parameters or bound to `fun`/`function`: a module's top-level values
; are its API, as its interface's `val`s are, and point-free functions (`let compare = Int.compare`,
; `let iter = C.iter`, Dream's `let router = Router.router`) look like constants to the grammar.
; `let () = ...` and `let _ =` are top-level code. An inline test named by a string (`let%expect_test
; "sorts" =`, also with tags, `let%test_module "M" = (module struct`) is a function named by its string,
; as a GoogleTest test is; an anonymous one (`let%test_unit _ =`) is top-level code.

; the parent of an item: a file, a `struct` or `sig`, or a ppx that writes items (Base's `[%%template ...]`)
; (what an interface can hold too, from modules to exceptions, `val` and `external`: ocaml-interface.scm,
; read with this file)
(structure (module_definition (module_binding (module_name) @name) @definition.module))
(attribute_payload (module_definition (module_binding (module_name) @name) @definition.module))
(method_definition (method_name) @name) @definition.function

(compilation_unit
  (value_definition (let_binding pattern: [(value_name) @name
                                           (parenthesized_operator (_) @name)
                                           (typed_pattern pattern: (value_name) @name)
                                           (string (string_content) @name)
                                           (parenthesized_pattern (string (string_content) @name))]) @definition.function))
(structure
  (value_definition (let_binding pattern: [(value_name) @name
                                           (parenthesized_operator (_) @name)
                                           (typed_pattern pattern: (value_name) @name)
                                           (string (string_content) @name)
                                           (parenthesized_pattern (string (string_content) @name))]) @definition.function))
(attribute_payload
  (value_definition (let_binding pattern: [(value_name) @name
                                           (parenthesized_operator (_) @name)
                                           (typed_pattern pattern: (value_name) @name)
                                           (string (string_content) @name)
                                           (parenthesized_pattern (string (string_content) @name))]) @definition.function))
