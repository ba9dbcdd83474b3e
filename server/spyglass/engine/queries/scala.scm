; Definitions in Scala. A trait is an interface; an `object` (singleton or companion) is a class, so
; `object Account { def opening }` gives Account.opening. Abstract `def`s in traits are methods too.

(trait_definition name: (identifier) @name) @definition.interface
(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.class
(enum_definition name: (identifier) @name) @definition.enum
(type_definition name: (type_identifier) @name) @definition.type
(package_object name: (identifier) @name) @definition.module

(function_definition name: (identifier) @name) @definition.function
(function_declaration name: (identifier) @name) @definition.function
(given_definition name: (identifier) @name) @definition.function
