; Definitions in F#. A namespace, a file's `module Giraffe.Routing` and a nested `module Core =` are modules,
; so what they hold is Giraffe.Routing.routef; a module abbreviation (`module L = List`) is one too.
; Types: a record is a struct, a union or an enum an enum, an `interface ... end` an interface, a class
; (`type Router(prefix) =`) a class, an abbreviation (`type HttpHandler = HttpFunc -> HttpFunc`) or a
; delegate a type, an exception a type; each type of `type A = ... and B = ...` apart. An interface written
; without `interface ... end` is a type named I<Name> with an abstract member (.NET's naming): an interface.
; A type extension (`type Router with member ...`) is a class named after the type it extends, as Rust's
; `impl X`, so its members are Router.m. A type's attributes (`[<CLIMutable>]`) are in its span.
;
; A member of a type (`member this.Add x =`, `static member Create () =`, `abstract Run : unit -> unit`,
; `member val Count = 0`, an interface implementation's members) is a method Type.m; the members of an
; object expression (`{ new IDisposable with member _.Dispose () = () }`) are not definitions.
;
; A value is a `let` of a module, a namespace or a file (`let routef path =`, `let inline`, `let rec f ...
; and g`, `let (>=>) a b =`), never a `let` in an expression or a class's private `let`. Every such value is
; a span, not only the ones with parameters: Giraffe's handlers are composed point-free
; (`let notFound = setStatusCode 404 >=> text "Not found"`), functions the grammar cannot tell from
; constants. The definition is the `let`, or with attributes (`[<Fact>]`, `[<EntryPoint>]`) the
; declaration they are in (the grammar puts them beside the `let`), so that they are in its span and a
; `///` doc above them is its doc. The grammar reads some functions with typed parameters and a return
; type as a pattern (`let authorizeByPolicy (policy: P) (h: HttpHandler) : HttpHandler =` is an identifier
; pattern `authorizeByPolicy` with argument patterns): its first identifier is the name.

(namespace name: (_) @name) @definition.module
(named_module name: (_) @name) @definition.module
(module_defn (identifier) @name) @definition.module
(module_abbrev . (identifier) @name) @definition.module

; with attributes, a type is the `type` declaration they are in (an `and` type after it is not: below)
(type_definition (attributes)
  (anon_type_defn
    (type_name type_name: (identifier) @name (#match? @name "^I[A-Z]"))
    (type_extension_elements (member_defn (member_signature))))) @definition.interface
(type_definition (attributes) (interface_type_defn (type_name type_name: (identifier) @name))) @definition.interface
(type_definition (attributes) (record_type_defn (type_name type_name: (identifier) @name))) @definition.struct
(type_definition (attributes) (union_type_defn (type_name type_name: (identifier) @name))) @definition.enum
(type_definition (attributes) (enum_type_defn (type_name type_name: (identifier) @name))) @definition.enum
(type_definition (attributes) (anon_type_defn (type_name type_name: (identifier) @name))) @definition.class
(type_definition (attributes) (type_abbrev_defn (type_name type_name: (identifier) @name))) @definition.type

(anon_type_defn
  (type_name type_name: (identifier) @name (#match? @name "^I[A-Z]"))
  (type_extension_elements (member_defn (member_signature)))) @definition.interface
(interface_type_defn (type_name type_name: (identifier) @name)) @definition.interface
(record_type_defn (type_name type_name: (identifier) @name)) @definition.struct
(union_type_defn (type_name type_name: (identifier) @name)) @definition.enum
(enum_type_defn (type_name type_name: (identifier) @name)) @definition.enum
(anon_type_defn (type_name type_name: (identifier) @name)) @definition.class
(type_extension (type_name type_name: (identifier) @name)) @definition.class
(type_abbrev_defn (type_name type_name: (identifier) @name)) @definition.type
(delegate_type_defn (type_name type_name: (identifier) @name)) @definition.type
(exception_definition exception_name: (long_identifier (identifier) @name)) @definition.type

; members: of a type (its `with` or indented block: `this.Add` or a static `Create`), of an interface, of an
; interface implementation
(type_extension_elements
  (member_defn (method_or_prop_defn name: (property_or_ident method: (identifier) @name))) @definition.function)
(type_extension_elements
  (member_defn (method_or_prop_defn name: (property_or_ident . (identifier) @name .))) @definition.function)
(type_extension_elements (member_defn (member_signature . (identifier) @name)) @definition.function)
(type_extension_elements (member_defn . (property_or_ident . (identifier) @name .)) @definition.function)
(interface_implementation
  (member_defn (method_or_prop_defn name: (property_or_ident method: (identifier) @name))) @definition.function)
(interface_implementation
  (member_defn (method_or_prop_defn name: (property_or_ident . (identifier) @name .))) @definition.function)
(interface_type_defn (member_defn (member_signature . (identifier) @name)) @definition.function)

; values, at the top of a file, a namespace or a module
(file (declaration_expression (attributes) (function_or_value_defn
  [(function_declaration_left [(identifier) (op_identifier)] @name)
   (value_declaration_left
     (identifier_pattern . (long_identifier_or_op [(identifier) @name (long_identifier . (identifier) @name .)])))])) @definition.function)
(file (declaration_expression (function_or_value_defn
  [(function_declaration_left [(identifier) (op_identifier)] @name)
   (value_declaration_left
     (identifier_pattern . (long_identifier_or_op [(identifier) @name (long_identifier . (identifier) @name .)])))]) @definition.function))
(namespace (declaration_expression (attributes) (function_or_value_defn
  [(function_declaration_left [(identifier) (op_identifier)] @name)
   (value_declaration_left
     (identifier_pattern . (long_identifier_or_op [(identifier) @name (long_identifier . (identifier) @name .)])))])) @definition.function)
(namespace (declaration_expression (function_or_value_defn
  [(function_declaration_left [(identifier) (op_identifier)] @name)
   (value_declaration_left
     (identifier_pattern . (long_identifier_or_op [(identifier) @name (long_identifier . (identifier) @name .)])))]) @definition.function))
(named_module (declaration_expression (attributes) (function_or_value_defn
  [(function_declaration_left [(identifier) (op_identifier)] @name)
   (value_declaration_left
     (identifier_pattern . (long_identifier_or_op [(identifier) @name (long_identifier . (identifier) @name .)])))])) @definition.function)
(named_module (declaration_expression (function_or_value_defn
  [(function_declaration_left [(identifier) (op_identifier)] @name)
   (value_declaration_left
     (identifier_pattern . (long_identifier_or_op [(identifier) @name (long_identifier . (identifier) @name .)])))]) @definition.function))
(module_defn (declaration_expression (attributes) (function_or_value_defn
  [(function_declaration_left [(identifier) (op_identifier)] @name)
   (value_declaration_left
     (identifier_pattern . (long_identifier_or_op [(identifier) @name (long_identifier . (identifier) @name .)])))])) @definition.function)
(module_defn (declaration_expression (function_or_value_defn
  [(function_declaration_left [(identifier) (op_identifier)] @name)
   (value_declaration_left
     (identifier_pattern . (long_identifier_or_op [(identifier) @name (long_identifier . (identifier) @name .)])))]) @definition.function))
