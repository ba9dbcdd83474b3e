; Definitions in Scala. A trait is an interface; an `object` (singleton or companion) is a class, so
; `object Account { def opening }` gives Account.opening. Abstract `def`s in traits are methods too.

(trait_definition name: (identifier) @name) @definition.interface
(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.class
(enum_definition name: (identifier) @name) @definition.enum
(type_definition name: (type_identifier) @name) @definition.type
(package_object name: (identifier) @name) @definition.module

; Scala 3: an extension's methods are qualified by the extended type (`extension (c: Circle) def area` is
; Circle.area), as Kotlin's extension functions are: at the top level, in an object, or in a class or trait
; without type parameters, and when the extension has none either; otherwise the extended type may be a type
; parameter (`extension [T](t: T) def pipe`, `trait Monoid[Elem]: extension (x: Elem) def twice`).
(compilation_unit
  (extension_definition !type_parameters
    parameters: (parameters . (parameter type: [(type_identifier) @scope (generic_type type: (type_identifier) @scope)]))
    (function_definition name: (identifier) @name) @definition.function))
(object_definition body: (template_body
  (extension_definition !type_parameters
    parameters: (parameters . (parameter type: [(type_identifier) @scope (generic_type type: (type_identifier) @scope)]))
    (function_definition name: (identifier) @name) @definition.function)))
(class_definition !type_parameters body: (template_body
  (extension_definition !type_parameters
    parameters: (parameters . (parameter type: [(type_identifier) @scope (generic_type type: (type_identifier) @scope)]))
    (function_definition name: (identifier) @name) @definition.function)))
(trait_definition !type_parameters body: (template_body
  (extension_definition !type_parameters
    parameters: (parameters . (parameter type: [(type_identifier) @scope (generic_type type: (type_identifier) @scope)]))
    (function_definition name: (identifier) @name) @definition.function)))

; A given with a body is an instance (kind class, as Haskell's instances): its methods are its own, and an
; anonymous one is named by its type (`given Ord[String] with` is Ord[String], apart from the trait Ord).
(given_definition name: (identifier) @name body: (with_template_body)) @definition.class
(given_definition !name return_type: (_) @name body: (with_template_body)) @definition.class

(function_definition name: (identifier) @name) @definition.function
(function_declaration name: (identifier) @name) @definition.function
(given_definition name: (identifier) @name) @definition.function
