; Definitions in Haskell. A function's type signature and its equations are siblings of one name:
; they are merged into one span (merge_clauses), whose signature line is the type signature.
; A type class is an interface (its signatures are methods); an `instance C T` is a class named after
; the type T (like a Rust impl), so its equations are T.f. data, newtype and type synonyms are types.

(class name: (name) @name) @definition.interface
(instance patterns: (type_patterns . (name) @name)) @definition.class
(instance patterns: (type_patterns . (_ . (name) @name))) @definition.class
(data_type name: (name) @name) @definition.type
(newtype name: (name) @name) @definition.type
(type_synonym name: (name) @name) @definition.type
(type_family name: (name) @name) @definition.type

(signature name: (variable) @name) @definition.function
(function name: (variable) @name) @definition.function
(bind name: (variable) @name) @definition.function
