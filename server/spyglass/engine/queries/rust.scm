; Definitions in Rust. An `impl` block is a container of kind "class" named after the type it
; implements (`impl Display for Point` -> Point), so its methods get the qualname Point.fmt.
; Attributes (#[derive(...)]) above an item are added to its span by the parser.

(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.interface
(type_item name: (type_identifier) @name) @definition.type
(mod_item name: (identifier) @name body: (_)) @definition.module
(macro_definition name: (identifier) @name) @definition.function

(impl_item type: (type_identifier) @name) @definition.class
(impl_item type: (generic_type type: (type_identifier) @name)) @definition.class
(impl_item type: (scoped_type_identifier name: (type_identifier) @name)) @definition.class
(impl_item type: (generic_type type: (scoped_type_identifier name: (type_identifier) @name))) @definition.class
