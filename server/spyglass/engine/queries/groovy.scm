; Definitions in Groovy (scripts, Gradle build files, Jenkinsfiles): classes, interfaces, traits, annotation
; types, enums, records; methods and constructors (qualified by their type: `Retry.run`); a script's top-level
; methods (`def helper(x) { ... }`), which are functions. A method named by a string (Spock's feature methods,
; `def "adds two numbers"() { ... }`) is named by the string's text: the quotes are dropped from names.
; A trait is an interface with bodies, as Scala's are.

(class_declaration name: (identifier) @name) @definition.class
(trait_declaration name: (identifier) @name) @definition.interface
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.class

(method_declaration name: (_) @name) @definition.function
(constructor_declaration name: (identifier) @name) @definition.function
